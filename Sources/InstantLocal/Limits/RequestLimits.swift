import InstantCore

/// A server's ``ServerLimits`` at work: the buckets and slots each limit counts in, and the
/// client addresses they are counted by. One per running server.
struct RequestLimits: Sendable {
  let addresses: ClientAddresses
  let connections: ConnectionSlots
  private let signInsByAddress: TokenBuckets?
  private let signInsByApp: TokenBuckets?
  private let transactionsByAddress: TokenBuckets?
  private let transactionsByApp: TokenBuckets?

  /// No limits, for parts made without a server (tests): no bucket, so no clock is read.
  static let unlimited = RequestLimits(.none, clock: .live)

  init(_ limits: ServerLimits, trustedProxies: Set<String> = [], clock: ServerClock) {
    let now: @Sendable () -> Double = { clock.seconds }
    func buckets(_ limit: Int?, per period: Duration) -> TokenBuckets? {
      limit.flatMap { $0 > 0 ? TokenBuckets(capacity: $0, per: period, now: now) : nil }
    }
    addresses = ClientAddresses(trustedProxies: Set(trustedProxies.map(ClientAddresses.normalize)))
    connections = ConnectionSlots(
      total: limits.maxConnections.flatMap { $0 > 0 ? $0 : nil }, perAddress: limits.maxConnectionsPerIP.flatMap { $0 > 0 ? $0 : nil })
    signInsByAddress = buckets(limits.signInsPerIPPerMinute, per: .seconds(60))
    signInsByApp = buckets(limits.signInsPerAppPerMinute, per: .seconds(60))
    transactionsByAddress = buckets(limits.transactionsPerIPPerSecond, per: .seconds(1))
    transactionsByApp = buckets(limits.transactionsPerAppPerSecond, per: .seconds(1))
  }

  /// Counts a sign-in request from `address` (for `appID`, once the request names one).
  ///
  /// - Throws: 429 `rate-limited`, with the seconds to wait in `hint.retry-after` (sent as the
  ///   `Retry-After` header), when the address or the app has had its minute's worth.
  func admitSignIn(from address: String, appID: String?) throws(ServerError) {
    if let wait = signInsByAddress?.take(address) {
      throw Self.rateLimited("Too many sign-in requests from your address. Please try again later.", wait)
    }
    guard let appID, let byApp = signInsByApp else { return }
    if let wait = byApp.take(appID) {
      signInsByAddress?.giveBack(address)
      throw Self.rateLimited("Too many sign-in requests for this app. Please try again later.", wait)
    }
  }

  /// How long a `transact` from `address` to `appID` waits for its turn (zero within the limits).
  func transactionTurn(from address: String, appID: String) -> Duration {
    max(transactionsByAddress?.reserve(address) ?? .zero, transactionsByApp?.reserve(appID) ?? .zero)
  }

  static func rateLimited(_ message: String, _ wait: Duration) -> ServerError {
    let seconds = max(1, Int(wait.seconds.rounded(.up)))
    return ServerError(.rateLimited, message: message, hint: ["retry-after": .number(Double(seconds))], status: 429)
  }
}
