import Dependencies
import IdentifiedCollections
import InstantDB

/// A live, writable collection: `@Shared(.instantSync(Schema.todos.where(\.done, .eq(false))))`.
///
/// The value follows the query (server results with this device's pending writes on top). A
/// change made with `$todos.withLock { … }` is saved as explicit writes computed against what
/// *this key* last delivered or saved (an entity-by-entity diff); `save` resumes once those writes are
/// durably queued on this device, and a write the server refuses is rolled back and reported as
/// the key's `loadError`.
public struct InstantSyncKey<Entity: EntityIdentifiable & Equatable>: SharedKey {
  public typealias Value = IdentifiedArrayOf<Entity>

  let session: CollectionSession<Entity>
  public let id: InstantKeyID

  init(_ key: EntityKey<Entity>, client: InstantClient?, kind: String = "sync", delivery: KeyDelivery = .immediate) {
    @Dependency(\.defaultInstant) var defaultInstant
    let client = client ?? defaultInstant
    session = CollectionSession(client: client, key: key, delivery: delivery)
    id = InstantKeyID(client: client, query: key.instaQL, kind: kind)
  }

  /// A key whose edits are diffed against `diffBase` (`instant-chaos keys --naive` shows what the
  /// design before issue 19 did).
  package init(_ key: EntityKey<Entity>, client: InstantClient, diffBase: DiffBase) {
    self.init(key, client: client)
    session.diffBase = diffBase
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    session.load(continuation, context: context, as: { $0 }, from: { $0 })
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    session.subscribe(subscriber, context: context, as: { $0 }, from: { $0 })
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    session.save(
      value, context: context, read: { Shared(wrappedValue: value, self).wrappedValue },
      sameStorage: ReferenceReadBack.sameStorage, from: { $0 }, continuation: continuation)
  }
}

extension InstantSyncKey: CustomStringConvertible {
  public var description: String { ".instantSync(\(session.key.instaQL.serialized()))" }
}

extension SharedReaderKey {
  /// A live, writable collection of `key`'s entities, in `client` (`DependencyValues.defaultInstant`
  /// by default).
  public static func instantSync<Entity>(_ key: EntityKey<Entity>, client: InstantClient? = nil) -> Self
  where Self == InstantSyncKey<Entity>.Default {
    Self[InstantSyncKey(key, client: client), default: []]
  }
}
