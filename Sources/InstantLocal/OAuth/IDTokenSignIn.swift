import Foundation
import InstantCore
import OrderedCollections

/// `POST /runtime/oauth/id_token`'s question: which email an ID token signs in, for an app and the
/// `client_name` it sent. The token must be one ``IDTokenCheck`` believes, for a client the app has
/// (``OAuthClient``). Only a server started with ``InstantLocalConfiguration/unverifiedIDTokens``
/// reads an unchecked token's `email` when the app has no client of that name.
struct IDTokenSignIn: Sendable {
  let storage: LocalStorage
  let check: IDTokenCheck
  let unverified: Bool

  /// The email `token` signs in to the app with, as the token has it (the caller normalizes it).
  func email(appID: String, clientName: String, token: String, nonce: String?) async throws(ServerError) -> String {
    guard let client = try storage.signInClient(appID, name: clientName) else {
      guard unverified else {
        throw .recordNotFound(
          "app-oauth-client", args: [["app-id": .string(appID), "client-name": .string(clientName)]])
      }
      return try Self.unverifiedEmail(token, now: check.directory.clock.now)
    }
    let identity = try await check.verify(token, client: client, nonce: nonce)
    guard let email = identity.email else {
      throw IDTokenCheck.invalid("The id_token has no verified email.")
    }
    return email
  }

  /// Development only: the token's `email` claim, its signature unchecked; an expired token
  /// (`exp`) is refused.
  static func unverifiedEmail(_ token: String, now: Date) throws(ServerError) -> String {
    // Its form only: three parts, the second a JSON object (the signature is not read at all).
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let claims = JSONWebToken.base64URL(parts[1]).flatMap({ try? JSON.parse(bytes: $0).objectValue }) else {
      throw .validation("id_token", input: .string("…"), ["The ID token is not a JWT (header.payload.signature)."])
    }
    guard let email = claims["email"]?.stringValue, email.contains("@") else {
      throw .validation("id_token", input: .string("…"), ["The ID token has no email claim."])
    }
    if let exp = claims["exp"]?.numberValue, exp < now.timeIntervalSince1970 {
      throw .validation("id_token", input: .string("…"), ["The ID token has expired."])
    }
    return email
  }
}

extension LocalStorage {
  /// The app's OAuth client named `name` for a sign-in, if it has one (a storage failure is a server fault).
  func signInClient(_ appID: String, name: String) throws(ServerError) -> OAuthClient? {
    do {
      return try oauthClient(appID, name: name)
    } catch {
      throw .serverFault("could not read the app's OAuth clients: \(error)")
    }
  }
}
