import Crypto
import Foundation

/// Signs and checks the URLs that serve `$files` blobs (docs/files.md, "URLs"):
/// `<base>/storage/files/<app-id>/<location-id>?expires=<unix s>&signature=<hex>`, where the
/// signature is the HMAC-SHA256 of `<app-id>/<location-id>/<expires>` under a secret kept in
/// the data file.
///
/// As the reference's presigned S3 URLs, a URL is valid for 7 days from the start of the UTC
/// day it is made, so the same file gets the same URL all day (browsers and `AsyncImage` cache
/// it) and it always has at least 6 days left.
struct FileURLSigner: Sendable {
  let key: SymmetricKey

  /// How long a URL is valid, from the start of the UTC day it was made.
  static let validity: TimeInterval = 7 * 86_400

  init(secret: Data) { key = SymmetricKey(data: secret) }

  /// When a URL made at `now` expires, in Unix seconds.
  static func expiry(at now: Date) -> Int {
    let day = Int((now.timeIntervalSince1970 / 86_400).rounded(.down)) * 86_400
    return day + Int(validity)
  }

  /// The signature of one blob's URL.
  func signature(appID: String, locationID: String, expires: Int) -> String {
    Data(HMAC<SHA256>.authenticationCode(for: Data(Self.message(appID, locationID, expires).utf8), using: key)).hexString
  }

  /// The URL of one blob, made at `now`. `base` is the server's public address.
  func url(base: URL, appID: String, locationID: String, now: Date) -> String {
    let expires = Self.expiry(at: now)
    var root = base.absoluteString
    while root.hasSuffix("/") { root.removeLast() }
    return "\(root)/storage/files/\(appID)/\(locationID)?expires=\(expires)&signature="
      + signature(appID: appID, locationID: locationID, expires: expires)
  }

  /// Why a URL is refused.
  enum Refusal: Error, Equatable {
    case badSignature
    case expired
  }

  /// Checks a URL's `expires` and `signature` (compared in constant time).
  func check(appID: String, locationID: String, expires: String?, signature: String?, now: Date) -> Refusal? {
    guard let expires, let seconds = Int(expires), let signature, let mac = Data(hex: signature),
      HMAC<SHA256>.isValidAuthenticationCode(
        mac, authenticating: Data(Self.message(appID, locationID, seconds).utf8), using: key)
    else { return .badSignature }
    return Double(seconds) > now.timeIntervalSince1970 ? nil : .expired
  }

  private static func message(_ appID: String, _ locationID: String, _ expires: Int) -> String {
    "\(appID)/\(locationID)/\(expires)"
  }
}
