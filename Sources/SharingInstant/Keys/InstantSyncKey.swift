import Dependencies
import IdentifiedCollections
import InstantDB

/// A live, writable collection: `@Shared(.instantSync(Schema.todos.where(\.done, .eq(false))))`.
///
/// The value follows the query (server results with this device's pending writes on top). A
/// change made with `$todos.withLock { … }` is saved as explicit writes computed against exactly the
/// value the change started from (an entity-by-entity diff); `save` resumes once those writes are
/// durably queued on this device, and a write the server refuses is rolled back and reported as
/// the key's `loadError`.
public struct InstantSyncKey<Entity: EntityIdentifiable & Equatable>: SharedKey, CollectionKey {
  public typealias Value = IdentifiedArrayOf<Entity>

  let session: CollectionSession<Value>
  public let id: InstantKeyID

  init(
    _ key: EntityKey<Entity>, client: InstantClient?, kind: String = "sync", delivery: KeyDelivery = .immediate,
    writable: Bool = true
  ) {
    self.init(collection: key, client: client, kind: kind, delivery: delivery, writable: writable)
  }

  init(session: CollectionSession<Value>, id: InstantKeyID) {
    self.session = session
    self.id = id
  }

  /// A key over `client` (tools and tests, which reach its seams below).
  package init(_ key: EntityKey<Entity>, client: InstantClient) {
    self.init(key, client: client, kind: "sync")
  }

  /// Test seams (see ``CollectionSessionHooks``).
  package var hooks: CollectionSessionHooks<Entity> {
    get { session.hooks }
    nonmutating set { session.hooks = newValue }
  }

  /// What this key's edits met so far.
  package var statistics: KeyEditStatistics { session.statistics }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    session.load(continuation, context: context)
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    session.subscribe(subscriber, context: context)
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    session.save(value, context: context, continuation: continuation)
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
