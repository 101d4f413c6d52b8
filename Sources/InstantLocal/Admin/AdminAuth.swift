import Foundation
import InstantCore

/// The checks of the admin API's credentials, as the reference makes them
/// (`req->app-id-authed!`, `get-perms!`, `req->app-accepting-superadmin-or-ref-token!`), with its
/// error types, messages and statuses. Tokens are never echoed back: error bodies end up in logs.
extension AppRegistry {
  /// Checks that `authorization` (`Bearer <token>`) carries the admin token of `appID`, which must
  /// exist. The app is not made on first use: no token can be its.
  func authorizeAdmin(appID: String, authorization: String?) throws(ServerError) {
    let token = try Self.bearerToken(authorization)
    let stored: String??
    do {
      stored = try storage.adminTokenSHA256(appID)
    } catch {
      throw .serverFault("The app could not be read: \(error)")
    }
    guard let hash = stored ?? nil, AdminToken.matches(token, sha256: hash) else {
      throw .wrongAdminToken(appID: appID, appHasToken: (stored ?? nil) != nil)
    }
  }

  /// The `/dash` routes' check: the admin token of `appID`; another app's token is named as such,
  /// and any other token is an unknown dashboard user (401), as on the reference.
  func authorizeDash(appID: String, authorization: String?) throws(ServerError) {
    let token = try Self.bearerToken(authorization)
    let hash = AdminToken.sha256(token)
    let owner: String?
    do {
      owner = try storage.appID(withAdminTokenSHA256: hash)
    } catch {
      throw .serverFault("The app could not be read: \(error)")
    }
    guard let owner else {
      throw ServerError(
        .recordNotFound, message: "Record not found: instant-user",
        hint: ["args": [["auth?": true]], "record-type": "instant-user"], status: 401)
    }
    guard owner == appID else {
      throw ServerError(
        .validationFailed,
        message: "This admin token does not belong to app \(appID). Admin tokens are bound to a single app. "
          + "Use a personal access token to manage other apps.",
        hint: ["reason": "admin-token-mismatch"])
    }
  }

  /// Whom a data request (query, transact) acts as (docs/admin.md, "Acting as a user"), by the precedence `as-token` > `as-email` >
  /// `as-guest` > admin. `as-token` and `as-guest` need no admin token (rules apply to them);
  /// `as-email` and the admin do.
  func actor(
    appID: String, authorization: String?, asToken: String?, asEmail: String?, asGuest: String?
  ) async throws(ServerError) -> Asker {
    if let asToken {
      guard AppRegistry.isUUID(asToken) else {
        throw ServerError(
          .paramMalformed, message: "Malformed parameter: [\"asUser\" \"token\"]", hint: ["in": ["asUser", "token"]])
      }
      guard let userID = await (try app(appID)).user(refreshToken: asToken) else {
        throw .recordNotFound("app-user", args: [["app-id": .string(appID)]])
      }
      return .user(userID)
    }
    if let asEmail {
      try authorizeAdmin(appID: appID, authorization: authorization)
      guard let userID = await (try app(appID)).findUser(email: AppDatabase.normalize(asEmail)) else {
        throw .recordNotFound("app-user", args: [["app-id": .string(appID), "email": .string(asEmail)]])
      }
      return .user(userID)
    }
    if asGuest != nil { return .user(nil) }
    try authorizeAdmin(appID: appID, authorization: authorization)
    return .admin
  }

  /// The token of an `Authorization` header: the text after the last `"Bearer "` (a bare token is
  /// taken as is), which must be a UUID.
  static func bearerToken(_ authorization: String?) throws(ServerError) -> String {
    guard let authorization else {
      throw ServerError(
        .paramMissing, message: "Missing parameter: [\"headers\" \"authorization\"]",
        hint: ["in": ["headers", "authorization"]])
    }
    let token = (authorization.components(separatedBy: "Bearer ").last ?? "").trimmingCharacters(in: .whitespaces)
    guard isUUID(token) else {
      throw ServerError(
        .paramMalformed, message: "Malformed parameter: [\"headers\" \"authorization\"]",
        hint: ["in": ["headers", "authorization"]])
    }
    return token.lowercased()
  }

  static func isUUID(_ text: String) -> Bool { normalizeAppID(text) != nil }
}

extension ServerError {
  /// The reference's answer to an admin token that is not the app's (or an app that does not
  /// exist); the token itself is left out of the hint.
  static func wrongAdminToken(appID: String, appHasToken: Bool) -> ServerError {
    var message = "This admin token may be expired or invalid. Or you may have provided an incorrect app ID."
    if !appHasToken {
      message += " instant-local: this app has no admin token; `instant-local apps rotate-token --app \(appID)` gives it one."
    }
    return ServerError(
      .recordNotFound, message: "Record not found: app-admin-token",
      hint: ["args": [["app-id": .string(appID)]], "message": .string(message), "record-type": "app-admin-token"])
  }
}
