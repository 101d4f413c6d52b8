/// How a refresh token is kept: its SHA-256 (hex) of the lower-cased token, in the data file and
/// in memory. A token is a random UUID (122 bits), so a fast hash is enough; the token itself is
/// known only to the client it was given to.
enum RefreshTokenHash {
  static func of(_ token: String) -> String { AdminToken.sha256(token.lowercased()) }

  /// Whether a stored value is already a hash (64 hex digits) rather than a token (a UUID).
  static func isHash(_ stored: String) -> Bool {
    stored.utf8.count == 64 && stored.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }
}
