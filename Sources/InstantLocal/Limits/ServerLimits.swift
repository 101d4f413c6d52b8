/// What one client address, and one app, may ask of a server open to the internet
/// (docs/instant-local.md, "Limits"). Every limit is off when `nil` (or 0 on the command line).
///
/// An embedded server (``InstantLocalConfiguration/init(host:port:storage:maxMessageBytes:pingInterval:presenceInterval:maxQueuedBytes:rulesFile:strictApps:)``,
/// tests, the demo) has ``none``; `instant-local serve` starts with ``production``.
public struct ServerLimits: Sendable, Equatable {
  /// WebSocket sessions open at once, server-wide. One more is closed at once with code 1013
  /// (try again later) and a reason naming the limit; the client reconnects later.
  public var maxConnections: Int?
  /// WebSocket sessions open at once from one client address.
  public var maxConnectionsPerIP: Int?
  /// Sign-in requests (guest sign-in, magic code send and verify, ID token, the OAuth flow's
  /// start and token) from one client address a minute; past it HTTP 429 `rate-limited` with
  /// `Retry-After`.
  public var signInsPerIPPerMinute: Int?
  /// The same, for all clients of one app together.
  public var signInsPerAppPerMinute: Int?
  /// `transact` messages from one client address a second. Past it a session's transactions are
  /// slowed — each waits for its turn, and the socket is read no faster — never refused: a
  /// local-first client's queued writes must all land.
  public var transactionsPerIPPerSecond: Int?
  /// The same, for all sessions of one app together.
  public var transactionsPerAppPerSecond: Int?

  public init(
    maxConnections: Int? = nil, maxConnectionsPerIP: Int? = nil, signInsPerIPPerMinute: Int? = nil,
    signInsPerAppPerMinute: Int? = nil, transactionsPerIPPerSecond: Int? = nil, transactionsPerAppPerSecond: Int? = nil
  ) {
    self.maxConnections = maxConnections
    self.maxConnectionsPerIP = maxConnectionsPerIP
    self.signInsPerIPPerMinute = signInsPerIPPerMinute
    self.signInsPerAppPerMinute = signInsPerAppPerMinute
    self.transactionsPerIPPerSecond = transactionsPerIPPerSecond
    self.transactionsPerAppPerSecond = transactionsPerAppPerSecond
  }

  /// No limit: an embedded server's default.
  public static let none = ServerLimits()

  /// `instant-local serve`'s defaults: generous for people (an office behind one address, an app
  /// flushing a day of offline writes), tight for a script.
  public static let production = ServerLimits(
    maxConnections: 10_000, maxConnectionsPerIP: 200, signInsPerIPPerMinute: 60, signInsPerAppPerMinute: 1_200,
    transactionsPerIPPerSecond: 200, transactionsPerAppPerSecond: 2_000)
}
