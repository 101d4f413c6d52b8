import Dependencies
import InstantDB

/// The client's connection status, live: `@SharedReader(.instantConnection) var status`.
public struct InstantConnectionKey: SharedReaderKey {
  public typealias Value = ConnectionStatus

  let client: InstantClient
  public var id: ObjectIdentifier { ObjectIdentifier(client) }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let client = client
    Task { continuation.resume(returning: await client.status) }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    let updates = client.statusUpdates()
    let task = Task {
      for await status in updates { subscriber.yield(status) }
    }
    return SharedSubscription { task.cancel() }
  }
}

extension SharedReaderKey where Self == InstantConnectionKey.Default {
  /// The connection status of `DependencyValues.defaultInstant`.
  public static var instantConnection: Self { instantConnection(client: nil) }

  /// The connection status of `client` (`DependencyValues.defaultInstant` when `nil`).
  public static func instantConnection(client: InstantClient?) -> Self {
    @Dependency(\.defaultInstant) var defaultInstant
    return Self[InstantConnectionKey(client: client ?? defaultInstant), default: .connecting]
  }
}
