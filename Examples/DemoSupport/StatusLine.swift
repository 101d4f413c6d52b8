public import Observation
public import SharingInstant

/// What the status line of every frame says: the connection (with the reason when it failed) and
/// the writes the server has not yet acknowledged. Observed, so a frame that shows it redraws
/// when it changes.
@MainActor
@Observable
public final class DemoStatus {
  /// The client's connection, live.
  @ObservationIgnored @SharedReader public var connection: ConnectionStatus
  /// Writes made here that the server has not acknowledged yet (queued or in flight), live.
  @ObservationIgnored @SharedReader public var pending: PendingWrites
  /// Why the connection is `errored` (the server's words), `nil` otherwise.
  public private(set) var reason: String?
  @ObservationIgnored private var watcher: Task<Void, Never>?

  public init(client: InstantClient) {
    _connection = SharedReader(.instantConnection(client: client))
    _pending = SharedReader(.instantPendingWrites(client: client))
    watcher = Task { [weak self] in
      for await status in client.statusUpdates() {
        let reason = status == .errored ? await client.lastError?.message : nil
        guard let self else { return }
        if self.reason != reason { self.reason = reason }
      }
    }
  }

  isolated deinit { watcher?.cancel() }

  /// `● authenticated · 0 pending writes`, and when the connection failed or is down, a line
  /// more saying why and what to do (each at most 80 columns).
  public func lines() -> [String] {
    let dot: String
    switch connection {
    case .authenticated: dot = Terminal.colored("●", "#46A758")
    case .connecting, .opened: dot = Terminal.colored("●", "#FFC53D")
    case .closed, .errored: dot = Terminal.colored("●", "#E5484D")
    }
    let count = pending.count
    var lines = ["\(dot) \(connection.rawValue) · \(count == 1 ? "1 pending write" : "\(count) pending writes")"]
    switch connection {
    case .errored:
      // The reason follows the status by a moment (it is asked of the client once the status
      // says `errored`); until then the line does not claim there is none.
      lines += wrap("the server refused this client" + (reason.map { ": \($0)" } ?? ""))
        .map { Terminal.colored($0, "#E5484D") }
    case .closed:
      lines.append(Terminal.dim("the server is not answering; retrying (edits wait until it is back)"))
    default:
      break
    }
    return lines
  }
}

/// `text` cut into lines of at most `width` characters, at spaces where it can.
public func wrap(_ text: String, width: Int = 80) -> [String] {
  var lines: [String] = []
  var line = ""
  for word in text.split(separator: " ", omittingEmptySubsequences: false) {
    var word = Substring(word)
    while word.count > width {
      if !line.isEmpty { lines.append(line); line = "" }
      lines.append(String(word.prefix(width)))
      word = word.dropFirst(width)
    }
    if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= width { line += " " + word } else {
      lines.append(line)
      line = String(word)
    }
  }
  return lines + [line]
}
