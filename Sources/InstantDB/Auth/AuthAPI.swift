import Foundation
import InstantCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
import OrderedCollections
#endif

/// The runtime auth endpoints over HTTP (docs/protocol.md, "Auth over HTTP"). Bodies are JSON; the key casing
/// differs between endpoints exactly as the server expects it.
struct AuthAPI: Sendable {
  let apiURI: URL
  let appID: String
  let http: any HTTPTransport

  func signInAsGuest() async throws(InstantClientError) -> AuthUser {
    try user(from: await post("runtime/auth/sign_in_guest", ["app-id": .string(appID)]))
  }

  func sendMagicCode(email: String) async throws(InstantClientError) {
    _ = try await post("runtime/auth/send_magic_code", ["app-id": .string(appID), "email": .string(email)])
  }

  func verifyMagicCode(email: String, code: String, guestToken: String?) async throws(InstantClientError) -> AuthUser {
    var body: JSONObject = ["app-id": .string(appID), "email": .string(email), "code": .string(code)]
    if let guestToken { body["refresh-token"] = .string(guestToken) }
    return try user(from: await post("runtime/auth/verify_magic_code", .object(body)))
  }

  func verifyRefreshToken(_ token: String) async throws(InstantClientError) -> AuthUser {
    try user(from: await post("runtime/auth/verify_refresh_token", ["app-id": .string(appID), "refresh-token": .string(token)]))
  }

  func signInWithIdToken(clientName: String, idToken: String, nonce: String?, currentToken: String?) async throws(InstantClientError) -> AuthUser {
    var body: JSONObject = ["app_id": .string(appID), "client_name": .string(clientName), "id_token": .string(idToken)]
    if let nonce { body["nonce"] = .string(nonce) }
    if let currentToken { body["refresh_token"] = .string(currentToken) }
    let answer = try await post("runtime/oauth/id_token", .object(body))
    return try user(from: answer, fallbackToken: answer["refresh_token"]?.stringValue)
  }

  func exchangeOAuthCode(code: String, codeVerifier: String?, currentToken: String?) async throws(InstantClientError) -> AuthUser {
    var body: JSONObject = ["app_id": .string(appID), "code": .string(code)]
    if let codeVerifier { body["code_verifier"] = .string(codeVerifier) }
    if let currentToken { body["refresh_token"] = .string(currentToken) }
    let answer = try await post("runtime/oauth/token", .object(body))
    return try user(from: answer, fallbackToken: answer["refresh_token"]?.stringValue)
  }

  func signOut(_ token: String) async throws(InstantClientError) {
    _ = try await post("runtime/signout", ["app_id": .string(appID), "refresh_token": .string(token)])
  }

  // MARK: HTTP

  private func user(from answer: JSON, fallbackToken: String? = nil) throws(InstantClientError) -> AuthUser {
    guard let user = answer["user"].flatMap({ AuthUser(json: $0, refreshToken: fallbackToken) }) else {
      throw InstantClientError(.authRejected, "the server's answer has no user with a refresh token")
    }
    return user
  }

  /// POSTs `body` and returns the JSON answer (refusals are
  /// ``InstantClientError/Kind/authRejected``, with only their hint's record type: the server's
  /// hint can echo the request, a code or a token).
  private func post(_ path: String, _ body: JSON) async throws(InstantClientError) -> JSON {
    var request = URLRequest(url: apiURI.appendingPathComponent(path))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "content-type")
    request.httpBody = Data(body.serialized().utf8)
    return try await ServerCall(apiURI: apiURI, http: http, path: path, kind: .authRejected).send(request, recordTypeOnly: true)
  }
}
