import InstantCore
import Foundation

/// One app's magic codes, as the reference server keeps them (docs/instant-local.md, "Magic
/// codes"): six digits from the system's secure random source, kept only as SHA-256 hashes, each
/// valid until it is used or ``Limits/expiry`` has passed, several valid at once for one email; and
/// per email at most ``Limits/perHour`` codes sent and as many verifications tried an hour (each
/// try counts, right or wrong). In development (no mailer) it also keeps the last code sent to each
/// email as sent, for ``InstantLocalServer/lastMagicCode(appID:email:)``. A value owned by its
/// ``AppDatabase``.
struct MagicCodes {
  /// What the server allows; one per server (`instant-local serve` flags).
  struct Limits: Sendable, Equatable {
    /// How long a code is valid (the reference's default: 24 hours).
    var expiry: Duration = .seconds(24 * 3600)
    /// Codes sent, and verifications tried, per email per hour (the reference's 20).
    var perHour = 20
  }

  /// Why a code was not accepted.
  enum Refusal: Error, Equatable {
    /// No code sent to this email has this value (or it was used).
    case notFound
    /// The code was sent, but longer ago than the expiry.
    case expired
    /// Too many codes sent, or verifications tried, for this email this hour.
    case rateLimited
  }

  var limits: Limits
  /// Whether the last code sent to each email is kept as sent (no mailer: development).
  let keepsPlainCodes: Bool
  /// Email → the last code sent, when ``keepsPlainCodes``.
  private var plainCodes: [String: String] = [:]

  init(limits: Limits = Limits(), keepsPlainCodes: Bool = false) {
    self.limits = limits
    self.keepsPlainCodes = keepsPlainCodes
  }
  /// Email → its codes not yet used: SHA-256 of the code → when it was sent.
  private var codes: [String: [String: Date]] = [:]
  /// Email → when its current hour began and how many sends, and verifications, it has had.
  private var sends: [String: (since: Date, count: Int)] = [:]
  private var tries: [String: (since: Date, count: Int)] = [:]

  /// A new code for `email`; `limited` (every route but the admin's `magic_code`) counts it against
  /// the hour's sends.
  mutating func issue(for email: String, now: Date, limited: Bool) throws(Refusal) -> String {
    if limited { try Self.count(&sends, email, now, limits) }
    var generator = SystemRandomNumberGenerator()
    let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    forgetExpired(email, now)
    codes[email, default: [:]][AdminToken.sha256(code)] = now
    if keepsPlainCodes { plainCodes[email] = code }
    return code
  }

  /// The last code sent to `email` and not used yet, when codes are kept as sent.
  func lastCode(for email: String) -> String? { plainCodes[email] }

  /// Checks `code` for `email` and uses it up when `use` (after the sign-in it allows succeeded,
  /// call ``use(_:for:)``).
  mutating func check(_ code: String, for email: String, now: Date) throws(Refusal) {
    try Self.count(&tries, email, now, limits)
    guard let sent = codes[email]?[AdminToken.sha256(code)] else { throw .notFound }
    guard now.timeIntervalSince(sent) <= limits.expiry.seconds else { throw .expired }
  }

  /// Uses `code` up: it is valid no more.
  mutating func use(_ code: String, for email: String) {
    codes[email]?.removeValue(forKey: AdminToken.sha256(code))
    if codes[email]?.isEmpty == true { codes.removeValue(forKey: email) }
    if plainCodes[email] == code { plainCodes.removeValue(forKey: email) }
  }

  /// How many codes `email` has that are not used yet (expired ones included until the next send).
  func outstanding(for email: String) -> Int { codes[email]?.count ?? 0 }

  private mutating func forgetExpired(_ email: String, _ now: Date) {
    codes[email] = codes[email]?.filter { now.timeIntervalSince($0.value) <= limits.expiry.seconds }
  }

  /// Counts one more against `email`'s hour in `buckets`; the hour starts over when it is past (the
  /// reference's bucket refills whole once an hour).
  private static func count(
    _ buckets: inout [String: (since: Date, count: Int)], _ email: String, _ now: Date, _ limits: Limits
  ) throws(Refusal) {
    var bucket = buckets[email] ?? (now, 0)
    if now.timeIntervalSince(bucket.since) >= 3600 { bucket = (now, 0) }
    guard bucket.count < limits.perHour else { throw .rateLimited }
    bucket.count += 1
    buckets[email] = bucket
  }
}
