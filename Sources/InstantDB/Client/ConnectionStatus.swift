/// Where the client's socket is, as the reference client names it.
public enum ConnectionStatus: String, Sendable, Equatable {
  /// Opening a socket (or waiting to retry).
  case connecting
  /// The socket is open and `init` was sent; nothing else is sent until the server answers.
  case opened
  /// The server accepted `init`: queries and writes flow.
  case authenticated
  /// The socket closed; the client reconnects with back-off unless it was shut down.
  case closed
  /// The server refused `init` (for example an unknown app id); see ``InstantClient/lastError``.
  case errored
}

/// The app's status on the server (`app-status-changed`).
public enum AppStatus: String, Sendable, Equatable {
  case active
  /// Reads work, writes are refused (``InstantClientError/Kind/appReadOnly``).
  case readOnly = "read-only"
  /// The app is switched off: writes are refused, reads show what is cached.
  case disabled
}
