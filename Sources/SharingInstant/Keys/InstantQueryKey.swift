import IdentifiedCollections
import InstantDB

/// A live, read-only collection: `@SharedReader(.instantQuery(Schema.posts.with(\.author)))`.
public struct InstantQueryKey<Entity: EntityIdentifiable & Equatable>: SharedReaderKey {
  public typealias Value = IdentifiedArrayOf<Entity>

  /// The same live query as a sync key, without its save.
  let base: InstantSyncKey<Entity>
  public var id: InstantKeyID { base.id }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(context: context, continuation: continuation)
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension InstantQueryKey: CustomStringConvertible {
  public var description: String { ".instantQuery(\(base.session.key.instaQL.serialized()))" }
}

extension SharedReaderKey {
  /// A live, read-only collection of `key`'s entities, nested links included.
  public static func instantQuery<Entity>(_ key: EntityKey<Entity>, client: InstantClient? = nil) -> Self
  where Self == InstantQueryKey<Entity>.Default {
    Self[InstantQueryKey(base: InstantSyncKey(key, client: client, kind: "query", writable: false)), default: []]
  }
}
