/// A write of this device that the server has not yet folded into every query, and its state.
public struct PendingWrite: Sendable, Equatable, Identifiable {
  public enum State: String, Sendable, Equatable {
    /// Saved on this device; not sent on the current connection (offline, or waiting to reconnect).
    case enqueued
    /// Sent; no answer yet.
    case sent
    /// The server acknowledged it (`transact-ok`); it stays until every query has caught up.
    case synced
  }

  /// The write's `client-event-id`, stable across restarts and re-sends.
  public var id: String
  /// When it was made, in epoch milliseconds.
  public var created: Double
  public var state: State
  /// The server's transaction id once acknowledged.
  public var txID: Int?
}

/// A write the server refused. It has been rolled back locally; ``error`` carries the server's
/// message.
public struct RejectedWrite: Sendable, Equatable, Identifiable {
  /// The write's `client-event-id` (``WriteReceipt/id``).
  public var id: String
  public var error: InstantClientError
}
