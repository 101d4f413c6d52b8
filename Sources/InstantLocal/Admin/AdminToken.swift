import Crypto
import Foundation

/// An app's admin token: a random UUID, shown once when it is made and stored only as its
/// SHA-256 (a token has 122 random bits, so a fast hash is enough: nothing can be guessed from it).
/// Its ``sha256(_:)`` and ``matches(_:sha256:)`` are how every secret the server keeps is hashed and
/// checked: refresh tokens, magic codes, OAuth states, cookies and codes, the metrics token.
enum AdminToken {
  /// A new token.
  static func generate() -> String { UUID().uuidString.lowercased() }

  /// The token's SHA-256, hex.
  static func sha256(_ token: String) -> String {
    SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// Whether `token` is the one whose hash is `expected`, compared in constant time.
  static func matches(_ token: String, sha256 expected: String) -> Bool {
    let actual = Array(sha256(token).utf8)
    let wanted = Array(expected.utf8)
    guard actual.count == wanted.count else { return false }
    var difference: UInt8 = 0
    for (a, b) in zip(actual, wanted) { difference |= a ^ b }
    return difference == 0
  }
}
