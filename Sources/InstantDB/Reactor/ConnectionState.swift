/// The socket's life, as a state machine the reactor owns: the status it reports, which socket is
/// current (a result belongs to the socket it came on), the session the server named, the delay
/// before the next attempt, and whether the network is there. The reactor runs the socket; each
/// event here returns the status to publish when it changed (`ConnectionStateTests`).
struct ConnectionState {
  private(set) var status: ConnectionStatus = .connecting
  /// Counts the sockets opened.
  private(set) var generation = 0
  /// The server's session id for the current socket, from `init-ok`.
  private(set) var sessionID: String?
  /// Why the server refused `init`, until a socket is authenticated again.
  private(set) var lastError: InstantClientError?
  private(set) var isNetworkAvailable = true
  private var backoff = ReconnectBackoff()

  /// An attempt to connect begins.
  mutating func attempting() -> ConnectionStatus? { set(.connecting) }

  /// A socket opened; results from now on belong to it.
  mutating func opened() -> ConnectionStatus? {
    generation += 1
    return set(.opened)
  }

  /// `init-ok`. Not accepted on a socket that had one already: `init` runs once per socket, and
  /// another `init-ok` would re-send every query and write.
  mutating func initOK(sessionID: String?) -> (accepted: Bool, publish: ConnectionStatus?) {
    guard status == .opened else { return (false, nil) }
    backoff.reset()
    lastError = nil
    self.sessionID = sessionID
    return (true, set(.authenticated))
  }

  /// The server refused `init`: errored, and it stays so through the socket's close.
  mutating func initRefused(_ error: InstantClientError) -> ConnectionStatus? {
    lastError = error
    return set(.errored)
  }

  /// The socket closed: the status to publish, and how long to wait before the next attempt
  /// (the reference's 0 s, then 1 s more per failure up to 10 s; back to 0 on `init-ok`).
  mutating func closed() -> (publish: ConnectionStatus?, delay: Duration) {
    sessionID = nil
    let publish = status == .errored ? nil : set(.closed)
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
    return (hasSocket && status != .errored ? set(.closed) : nil, false)
  }

  /// Reconnect at once (a new user, an attr race, a caller's request).
  mutating func reconnectRequested() { backoff.reset() }

  /// The client shut down.
  mutating func shutDown() -> ConnectionStatus? { set(.closed) }

  private mutating func set(_ new: ConnectionStatus) -> ConnectionStatus? {
    guard new != status else { return nil }
    status = new
    return new
  }
}
