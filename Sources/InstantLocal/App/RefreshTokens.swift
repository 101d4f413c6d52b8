/// Who each of an app's refresh tokens signs in, in memory: the token's hash
/// (``RefreshTokenHash``) → user id; the tokens themselves are kept nowhere. The data file holds
/// the same hashes; its ``AppDatabase`` changes both together. A value owned by the app.
struct RefreshTokens {
  private var owners: [String: String]

  /// The tokens a data file holds: hash → user id.
  init(_ owners: [String: String]) { self.owners = owners }

  /// The user `token` signs in, if it is one of this app's.
  func owner(of token: String) -> String? { owners[RefreshTokenHash.of(token)] }

  /// `token` now signs in `userID`.
  mutating func add(_ token: String, for userID: String) { owners[RefreshTokenHash.of(token)] = userID }

  /// The token with this hash signs in no one any more.
  mutating func remove(hash: String) { owners.removeValue(forKey: hash) }

  /// No token of `userID` signs in any more.
  mutating func removeAll(of userID: String) { owners = owners.filter { $0.value != userID } }
}
