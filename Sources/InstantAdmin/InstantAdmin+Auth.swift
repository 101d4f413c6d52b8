import Foundation
import InstantCore
import OrderedCollections

/// Users, refresh tokens and magic codes (`db.auth` in `@instantdb/admin`). These always need the
/// admin token; acting as a user does not change them.
extension InstantAdmin {
  /// Which user a request names.
  public enum UserKey: Sendable, Equatable {
    case email(String)
    case id(String)
    case refreshToken(String)

    var queryItem: URLQueryItem {
      switch self {
      case let .email(email): URLQueryItem(name: "email", value: email)
      case let .id(id): URLQueryItem(name: "id", value: id)
      case let .refreshToken(token): URLQueryItem(name: "refresh_token", value: token)
      }
    }
  }

  /// A refresh token for the user with this email, made (without the sign-up rule) if missing:
  /// sign a user in from your own backend.
  public func createToken(email: String) async throws(InstantAdminError) -> AdminUser {
    try user(in: await send("POST", "admin/refresh_tokens", body: ["email": .string(email)]))
  }

  /// A refresh token for the user with this id, made if missing.
  public func createToken(id: String) async throws(InstantAdminError) -> AdminUser {
    try user(in: await send("POST", "admin/refresh_tokens", body: ["id": .string(id)]))
  }

  /// The user, or `nil` when there is none.
  public func user(_ key: UserKey) async throws(InstantAdminError) -> AdminUser? {
    AdminUser(try await send("GET", "admin/users", query: [key.queryItem])["user"])
  }

  /// Deletes the user (and what cascades from them) and signs them out everywhere; returns the
  /// deleted user, or `nil` when there was none.
  @discardableResult
  public func deleteUser(_ key: UserKey) async throws(InstantAdminError) -> AdminUser? {
    AdminUser(try await send("DELETE", "admin/users", query: [key.queryItem])["deleted"])
  }

  /// Makes a magic code for the email and returns it, sending nothing: for your own email sender.
  public func generateMagicCode(email: String) async throws(InstantAdminError) -> String {
    let answer = try await send("POST", "admin/magic_code", body: ["email": .string(email)])
    guard let code = answer["code"]?.stringValue else { throw InstantAdminError(.badResponse, "the answer has no code") }
    return code
  }

  /// Checks a magic code and signs the user in (made if missing); the user has a refresh token.
  public func verifyMagicCode(email: String, code: String) async throws(InstantAdminError) -> AdminUser {
    try user(in: await send("POST", "admin/verify_magic_code", body: ["email": .string(email), "code": .string(code)]))
  }

  /// Signs a user out: every session of theirs (`.email`, `.id`) or one (`.refreshToken`).
  public func signOut(_ key: UserKey) async throws(InstantAdminError) {
    let body: JSON =
      switch key {
      case let .email(email): ["email": .string(email)]
      case let .id(id): ["id": .string(id)]
      case let .refreshToken(token): ["refresh_token": .string(token)]
      }
    _ = try await send("POST", "admin/sign_out", body: body)
  }

  private func user(in answer: JSON) throws(InstantAdminError) -> AdminUser {
    guard let user = AdminUser(answer["user"]) else { throw InstantAdminError(.badResponse, "the answer has no user") }
    return user
  }
}
