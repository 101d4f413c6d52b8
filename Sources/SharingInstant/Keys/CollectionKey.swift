import Dependencies
import InstantDB

/// A collection key: a session (``CollectionSession``) and an id, which Sharing's calls go to.
protocol CollectionKey: SharedKey where Value: KeyCollection, ID == InstantKeyID {
  var session: CollectionSession<Value> { get }
  init(session: CollectionSession<Value>, id: InstantKeyID)
}

extension CollectionKey {
  /// A key of `kind` over `key` in `client` (the app's default client when `nil`). A read-only key
  /// built on it (`writable: false`) never reads its reference back: no edit reaches it.
  init(collection key: EntityKey<Value.Entity>, client: InstantClient?, kind: String, delivery: KeyDelivery, writable: Bool) {
    @Dependency(\.defaultInstant) var defaultInstant
    let client = client ?? defaultInstant
    let id = InstantKeyID(client: client, query: key.instaQL, kind: kind)
    var readBack: (@Sendable (CollectionSession<Value>) -> Shared<Value>)?
    // Sharing's one reference for the id, found by making the `@Shared` over the key again.
    if writable { readBack = { Shared(wrappedValue: Value(collection: []), Self(session: $0, id: id)) } }
    self.init(session: CollectionSession<Value>(client: client, key: key, delivery: delivery, readBack: readBack), id: id)
  }
}
