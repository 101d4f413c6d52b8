import Dependencies
import InstantDB

/// The client's writes that the server has not acknowledged yet, live:
/// `@SharedReader(.instantPendingWrites) var pending: PendingWrites`. For a "Saving…" / "Offline —
/// 3 changes waiting" indicator.
public struct InstantPendingWritesKey: SharedReaderKey {
  public typealias Value = PendingWrites

  let client: InstantClient
  public var id: ObjectIdentifier { ObjectIdentifier(client) }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let client = client
    Task { continuation.resume(returning: PendingWrites(await client.pendingWrites)) }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    let updates = client.pendingWriteUpdates()
    let task = Task {
      var last: PendingWrites?
      for await writes in updates {
        let value = PendingWrites(writes)
        guard value != last else { continue }
        last = value
        subscriber.yield(value)
      }
    }
    return SharedSubscription { task.cancel() }
  }
}

/// The writes of a client that are not yet acknowledged by the server, oldest first.
public struct PendingWrites: Sendable, Equatable {
  /// Saved on this device and not yet acknowledged (queued while offline, or sent and waiting).
  public var unacknowledged: [PendingWrite]

  public init(_ writes: [PendingWrite] = []) {
    unacknowledged = writes.filter { $0.state != .synced }
  }

  /// How many writes are waiting for the server.
  public var count: Int { unacknowledged.count }
  /// Whether every write has been acknowledged.
  public var isEmpty: Bool { unacknowledged.isEmpty }
}

extension SharedReaderKey where Self == InstantPendingWritesKey.Default {
  /// The unacknowledged writes of `DependencyValues.defaultInstant`.
  public static var instantPendingWrites: Self { instantPendingWrites(client: nil) }

  /// The unacknowledged writes of `client` (`DependencyValues.defaultInstant` when `nil`).
  public static func instantPendingWrites(client: InstantClient?) -> Self {
    @Dependency(\.defaultInstant) var defaultInstant
    return Self[InstantPendingWritesKey(client: client ?? defaultInstant), default: PendingWrites()]
  }
}
