import Observation
import SharingInstant

/// What the status line of every frame says: the connection, the writes the server has not yet
/// acknowledged, and the server. Observable, so a frame that shows it redraws when it changes.
@MainActor
@Observable
public final class DemoStatus {
  /// The client's connection, live.
  @ObservationIgnored @SharedReader public var connection: ConnectionStatus
  /// Writes made here that the server has not acknowledged yet (queued or in flight).
  public private(set) var unacknowledged = 0

  @ObservationIgnored private var watch: Task<Void, Never>?

  public init(client: InstantClient) {
    _connection = SharedReader(.instantConnection(client: client))
    let updates = client.pendingWriteUpdates()
    watch = Task { [weak self] in
      for await writes in updates {
        let count = writes.count { $0.state != .synced }
        guard let self else { return }
        if self.unacknowledged != count { self.unacknowledged = count }
      }
    }
  }

  isolated deinit { watch?.cancel() }

  /// `● authenticated · 0 pending writes · embedded instant-local on http://127.0.0.1:8888`.
  public func line(server: DemoServer) -> String {
    let dot: String
    switch connection {
    case .authenticated: dot = Terminal.colored("●", "#46A758")
    case .connecting, .opened: dot = Terminal.colored("●", "#FFC53D")
    case .closed, .errored: dot = Terminal.colored("●", "#E5484D")
    }
    let pending = unacknowledged == 1 ? "1 pending write" : "\(unacknowledged) pending writes"
    return "\(dot) \(connection.rawValue) · \(pending) · \(server.summary)"
  }
}
