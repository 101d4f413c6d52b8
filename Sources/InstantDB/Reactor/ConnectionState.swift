/// The socket's life, as a state machine the reactor owns: where the socket is (``Phase``, each
/// case carrying what only it has), which socket is current (a result belongs to the socket it
/// came on), the delay before the next attempt, and whether the network is there. The reactor
/// runs the socket; each event here returns the status to publish when it changed
/// (`ConnectionStateTests`).
struct ConnectionState {
  /// Where the socket is. A session id exists only while authenticated, and the reason the server
  /// refused `init` only until a socket is authenticated again, so neither can contradict the
  /// status.
  enum Phase: Equatable {
    /// Opening a socket, or waiting to retry. `refusal`: why the server refused the last `init`.
    case connecting(refusal: InstantClientError?)
    /// A socket is open and `init` sent.
    case opened(refusal: InstantClientError?)
    /// The server accepted `init` and named the session.
    case authenticated(sessionID: String?)
    /// The server refused `init`; it stays so through the socket's close.
    case errored(InstantClientError)
    /// The socket closed; the next attempt comes after the back-off.
    case closed(refusal: InstantClientError?)
    /// The client shut down: no socket opens again. `refusal` stays readable.
    case shutDown(refusal: InstantClientError?)
  }

  private(set) var phase = Phase.connecting(refusal: nil)
  /// Counts the sockets opened.
  private(set) var generation = 0
  private(set) var isNetworkAvailable = true
  private var backoff = ReconnectBackoff()

  /// The status the client reports.
  var status: ConnectionStatus {
    switch phase {
    case .connecting: .connecting
    case .opened: .opened
    case .authenticated: .authenticated
    case .errored: .errored
    case .closed, .shutDown: .closed
    }
  }

  /// The server's session id for the current socket, from `init-ok`.
  var sessionID: String? {
    if case let .authenticated(sessionID) = phase { sessionID } else { nil }
  }

  /// Why the server refused `init`, until a socket is authenticated again.
  var lastError: InstantClientError? {
    switch phase {
    case let .connecting(refusal), let .opened(refusal), let .closed(refusal), let .shutDown(refusal): refusal
    case let .errored(error): error
    case .authenticated: nil
    }
  }

  var isShutDown: Bool {
    if case .shutDown = phase { true } else { false }
  }

  /// An attempt to connect begins.
  mutating func attempting() -> ConnectionStatus? { move(to: .connecting(refusal: lastError)) }

  /// A socket opened; results from now on belong to it.
  mutating func opened() -> ConnectionStatus? {
    guard !isShutDown else { return nil }
    generation += 1
    return move(to: .opened(refusal: lastError))
  }

  /// `init-ok`. Not accepted on a socket that had one already: `init` runs once per socket, and
  /// another `init-ok` would re-send every query and write.
  mutating func initOK(sessionID: String?) -> (accepted: Bool, publish: ConnectionStatus?) {
    guard case .opened = phase else { return (false, nil) }
    backoff.reset()
    return (true, move(to: .authenticated(sessionID: sessionID)))
  }

  /// The server refused `init`: errored, and it stays so through the socket's close.
  mutating func initRefused(_ error: InstantClientError) -> ConnectionStatus? { move(to: .errored(error)) }

  /// The socket closed: the status to publish, and how long to wait before the next attempt
  /// (the reference's 0 s, then 1 s more per failure up to 10 s; back to 0 on `init-ok`).
  mutating func closed() -> (publish: ConnectionStatus?, delay: Duration) {
    let publish: ConnectionStatus? =
      if case .errored = phase { nil } else { move(to: .closed(refusal: lastError)) }
    return (publish, backoff.next())
  }

  /// The network came or went; nil when that is no change. Going offline with a socket open
  /// closes it at once: a write made from then on waits in the queue.
  mutating func network(_ available: Bool, hasSocket: Bool) -> (publish: ConnectionStatus?, wake: Bool)? {
    guard available != isNetworkAvailable else { return nil }
    isNetworkAvailable = available
    if available {
      backoff.reset()
      return (nil, true)
    }
    if case .errored = phase { return (nil, false) }
    return (hasSocket ? move(to: .closed(refusal: lastError)) : nil, false)
  }

  /// Reconnect at once (a new user, an attr race, a caller's request).
  mutating func reconnectRequested() { backoff.reset() }

  /// The client shut down; nothing moves it from there.
  mutating func shutDown() -> ConnectionStatus? { move(to: .shutDown(refusal: lastError)) }

  /// Moves to `next` (never out of ``Phase/shutDown``); the status to publish when it changed.
  private mutating func move(to next: Phase) -> ConnectionStatus? {
    guard !isShutDown else { return nil }
    let before = status
    phase = next
    return status == before ? nil : status
  }
}
