import SharingInstant

/// What the status line of every frame says: the connection, the writes the server has not yet
/// acknowledged, and the server. Both are `@SharedReader`s, so a frame that shows them redraws
/// when they change.
@MainActor
public final class DemoStatus {
  /// The client's connection, live.
  @SharedReader public var connection: ConnectionStatus
  /// Writes made here that the server has not acknowledged yet (queued or in flight), live.
  @SharedReader public var pending: PendingWrites

  public init(client: InstantClient) {
    _connection = SharedReader(.instantConnection(client: client))
    _pending = SharedReader(.instantPendingWrites(client: client))
  }

  /// `● authenticated · 0 pending writes · embedded instant-local on http://127.0.0.1:8888`.
  public func line(server: DemoServer) -> String {
    let dot: String
    switch connection {
    case .authenticated: dot = Terminal.colored("●", "#46A758")
    case .connecting, .opened: dot = Terminal.colored("●", "#FFC53D")
    case .closed, .errored: dot = Terminal.colored("●", "#E5484D")
    }
    let count = pending.count
    return "\(dot) \(connection.rawValue) · \(count == 1 ? "1 pending write" : "\(count) pending writes") · \(server.summary)"
  }
}
