import InstantCore
import InstantLocal
import Testing
internal import OrderedCollections

/// What the tests do with a running server: its port, sessions, HTTP requests.
extension InstantLocalServer {
  /// The bound port; fails the test when the server is not running.
  var boundPort: Int {
    get async throws { try #require(port, "the server is not running") }
  }

  /// Opens a session and completes `init`; returns it with `init-ok` (or the `error`).
  func connect(
    appID: String = TestSession.appID, versions: JSON? = TestSession.modernVersions, refreshToken: String? = nil
  ) async throws -> (TestSession, JSON) {
    try await TestSession.connected(port: boundPort, appID: appID, versions: versions, refreshToken: refreshToken)
  }

  /// A JSON request over HTTP; returns the status and the parsed body.
  func http(_ method: String, _ path: String, body: JSON? = nil) async throws -> (Int, JSON) {
    try await HTTPTestClient(port: boundPort).http(method, path, body: body)
  }

  /// `POST /runtime/auth/sign_in_guest`.
  func signInGuest(appID: String = TestSession.appID) async throws -> (Int, JSON) {
    try await http("POST", "/runtime/auth/sign_in_guest", body: ["app-id": .string(appID)])
  }

  /// `POST /runtime/auth/send_magic_code`.
  func sendMagicCode(appID: String = TestSession.appID, email: String) async throws -> (Int, JSON) {
    try await HTTPTestClient(port: boundPort).sendMagicCode(appID: appID, email: email)
  }

  /// `POST /runtime/auth/verify_magic_code`, upgrading the guest whose `refreshToken` is given.
  func verifyMagicCode(
    appID: String = TestSession.appID, email: String, code: String, refreshToken: JSON? = nil
  ) async throws -> (Int, JSON) {
    var body: JSONObject = ["app-id": .string(appID), "email": .string(email), "code": .string(code)]
    if let refreshToken { body["refresh-token"] = refreshToken }
    return try await http("POST", "/runtime/auth/verify_magic_code", body: .object(body))
  }
}
