import Foundation
import OrderedCollections

/// The OAuth web flows under way (docs/instant-local.md, "Sign in with OAuth in a browser"): each
/// started sign-in until the provider sends the browser back (10 minutes at most, as the
/// reference), and each code issued until the app exchanges it (5 minutes). Both are single use,
/// kept by their SHA-256 only, and in memory: a restart ends flows under way, and the user starts
/// again. At most ``maxEntries`` of each are kept, so a flood of starts cannot grow the server.
actor OAuthFlows {
  /// A sign-in sent to the provider.
  struct Started: Sendable {
    var appID: String
    var clientName: String
    /// Where the browser goes afterwards: the app's `redirect_uri`, with its `state`.
    var redirectURL: URL
    var cookieHash: String
    var codeChallenge: String?
    var codeChallengeMethod: String?
    /// Sent to the provider; its ID token must carry it back.
    var nonce: String
    var at: Date
  }

  /// A code the app may exchange for a refresh token.
  struct Issued: Sendable {
    var appID: String
    var email: String
    var codeChallenge: String?
    var codeChallengeMethod: String?
    var at: Date
  }

  static let startLifetime: TimeInterval = 600
  static let codeLifetime: TimeInterval = 300
  static let maxEntries = 10_000

  /// In the order they were made, so the expired ones are the first ones.
  private var started: OrderedDictionary<String, Started> = [:]
  private var issued: OrderedDictionary<String, Issued> = [:]
  private let now: @Sendable () -> Date
  /// At most this many of each are kept (``maxEntries``; tests use fewer).
  private let capacity: Int

  init(now: @escaping @Sendable () -> Date, capacity: Int = OAuthFlows.maxEntries) {
    self.now = now
    self.capacity = capacity
  }

  /// Keeps `flow` under a new random state; returns the state and the cookie that must come back
  /// with it. `nil` when ``maxEntries`` flows are under way.
  func start(_ flow: (_ cookieHash: String, _ at: Date) -> Started) -> (state: String, cookie: String)? {
    let now = now()
    Self.dropExpired(&started, before: now.addingTimeInterval(-Self.startLifetime), at: \.at)
    guard started.count < capacity else { return nil }
    let state = Self.random()
    let cookie = Self.random()
    started[AdminToken.sha256(state)] = flow(AdminToken.sha256(cookie), now)
    return (state, cookie)
  }

  /// The flow `state` names, removed (a state is used once); `.expired` past its lifetime.
  func finish(state: String) -> Result<Started, Refusal>? {
    guard let flow = started.removeValue(forKey: AdminToken.sha256(state)) else { return nil }
    guard now().timeIntervalSince(flow.at) <= Self.startLifetime else { return .failure(.expired) }
    return .success(flow)
  }

  /// A new code for `grant`; `nil` when ``maxEntries`` codes wait.
  func issue(_ grant: (Date) -> Issued) -> String? {
    let now = now()
    Self.dropExpired(&issued, before: now.addingTimeInterval(-Self.codeLifetime), at: \.at)
    guard issued.count < capacity else { return nil }
    let code = Self.random()
    issued[AdminToken.sha256(code)] = grant(now)
    return code
  }

  /// The grant `code` names, removed first whatever happens next (a code is used once).
  func redeem(code: String) -> Result<Issued, Refusal>? {
    guard let grant = issued.removeValue(forKey: AdminToken.sha256(code)) else { return nil }
    guard now().timeIntervalSince(grant.at) <= Self.codeLifetime else { return .failure(.expired) }
    return .success(grant)
  }

  enum Refusal: Error { case expired }

  /// Drops the entries made before `cutoff`: a run at the front, so this costs what it drops.
  private static func dropExpired<Value>(
    _ entries: inout OrderedDictionary<String, Value>, before cutoff: Date, at: (Value) -> Date
  ) {
    let expired = entries.values.prefix { at($0) < cutoff }.count
    if expired > 0 { entries.removeFirst(expired) }
  }

  /// A random UUID, lowercased: what the reference uses for states, cookies and codes.
  static func random() -> String { UUID().uuidString.lowercased() }
}
