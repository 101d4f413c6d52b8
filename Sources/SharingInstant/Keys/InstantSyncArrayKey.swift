import Dependencies
import IdentifiedCollections
import InstantDB

/// ``InstantSyncKey`` with a plain array as its value: `@Shared(.instantSync(Schema.todos)) var
/// todos: [Todo] = []`. The same query, diff and writes; an edit that leaves two entities with one
/// id keeps the later one.
public struct InstantSyncArrayKey<Entity: EntityIdentifiable & Equatable>: SharedKey, CollectionKey {
  public typealias Value = [Entity]

  let session: CollectionSession<Value>
  public let id: InstantKeyID

  init(_ key: EntityKey<Entity>, client: InstantClient?, kind: String = "sync-array", writable: Bool = true) {
    self.init(collection: key, client: client, kind: kind, delivery: .immediate, writable: writable)
  }

  init(session: CollectionSession<Value>, id: InstantKeyID) {
    self.session = session
    self.id = id
  }

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

extension InstantSyncArrayKey: CustomStringConvertible {
  public var description: String { ".instantSync(\(session.key.instaQL.serialized())) as [\(Entity.self)]" }
}

/// ``InstantQueryKey`` with a plain array as its value.
public struct InstantQueryArrayKey<Entity: EntityIdentifiable & Equatable>: SharedReaderKey {
  public typealias Value = [Entity]

  let base: InstantSyncArrayKey<Entity>
  public var id: InstantKeyID { base.id }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(context: context, continuation: continuation)
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension SharedReaderKey {
  /// A live, writable array of `key`'s entities (the `IdentifiedArray` form wins when the type
  /// is not given).
  @_disfavoredOverload
  public static func instantSync<Entity>(_ key: EntityKey<Entity>, client: InstantClient? = nil) -> Self
  where Self == InstantSyncArrayKey<Entity>.Default {
    Self[InstantSyncArrayKey(key, client: client), default: []]
  }

  /// A live, read-only array of `key`'s entities.
  @_disfavoredOverload
  public static func instantQuery<Entity>(_ key: EntityKey<Entity>, client: InstantClient? = nil) -> Self
  where Self == InstantQueryArrayKey<Entity>.Default {
    Self[InstantQueryArrayKey(base: InstantSyncArrayKey(key, client: client, kind: "query-array", writable: false)), default: []]
  }
}
