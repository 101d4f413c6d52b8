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

  /// POSTs `body` and returns the JSON answer; a non-200 answer throws the server's error
  /// (``InstantClientError/Kind/authRejected``), a failed request ``InstantClientError/Kind/offline``
  /// (``InstantClientError/Kind/cancelled`` if the calling task was cancelled), with the
  /// networking error kept in ``InstantClientError/underlying``.
  private func post(_ path: String, _ body: JSON) async throws(InstantClientError) -> JSON {
    var request = URLRequest(url: apiURI.appendingPathComponent(path))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "content-type")
    request.httpBody = Data(body.serialized().utf8)
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await URLSession.shared.data(for: request)
    } catch {
      if error is CancellationError || (error as? URLError)?.code == .cancelled {
        throw InstantClientError(.cancelled, "the request to \(apiURI.absoluteString)/\(path) was cancelled", underlying: error)
      }
      throw InstantClientError(
        .offline, "could not reach \(apiURI.absoluteString)/\(path): \(error.localizedDescription)", underlying: error)
    }
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    let answer: JSON
    do {
      answer = try JSON.parse(bytes: data)
    } catch {
      // Not JSON: a proxy's page, a cut-off body. Its text is not repeated (it could echo a token).
      throw InstantClientError(
        .authRejected, "the server's answer to \(path) (status \(status)) is not JSON", underlying: error)
    }
    guard status == 200 else {
      // The server's hint can echo the request (a code, a token): only its record type is kept.
      let hint: JSON? = answer["hint"]?["record-type"].map { ["record-type": $0] }
      throw InstantClientError(
        .authRejected, answer["message"]?.stringValue ?? "the server answered \(status)",
        serverType: answer["type"]?.stringValue.map(ServerErrorType.init(rawValue:)), hint: hint)
    }
    return answer
  }
}
