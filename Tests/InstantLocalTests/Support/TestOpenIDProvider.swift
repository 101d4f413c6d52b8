import Crypto
import Foundation
import Hummingbird
import InstantCore
import Logging
import TestSupport
import _CryptoExtras
internal import OrderedCollections

/// An OpenID provider on loopback for the ID-token tests: its discovery document and signing keys
/// over real HTTP, and tokens signed with its keys (an RSA key for RS256, a P-256 key for ES256),
/// or with keys it never published, as an attacker would.
final class TestOpenIDProvider: Sendable {
  let port: Int
  let rsa: _RSA.Signing.PrivateKey
  let ec: P256.Signing.PrivateKey
  /// The keys the JWKS lists now (a test rotates them), and how often it was fetched.
  private let state: Locked<(keys: [JSON], fetches: Int)>
  /// The OAuth web flow's side: what each authorization code the test grants signs in as, and
  /// each form the token endpoint received.
  private let grants: Locked<(tokens: [String: String], exchanges: [[String: String]])>

  var issuer: String { "http://127.0.0.1:\(port)" }
  var discoveryEndpoint: URL { URL(string: "\(issuer)/.well-known/openid-configuration")! }
  var jwksURI: URL { URL(string: "\(issuer)/jwks")! }
  var jwksFetches: Int { state.withLock { $0.fetches } }

  private init(
    port: Int, rsa: _RSA.Signing.PrivateKey, ec: P256.Signing.PrivateKey, state: Locked<(keys: [JSON], fetches: Int)>,
    grants: Locked<(tokens: [String: String], exchanges: [[String: String]])>
  ) {
    self.grants = grants
    self.port = port
    self.rsa = rsa
    self.ec = ec
    self.state = state
  }

  /// Runs `body` with a provider serving on a free loopback port, publishing `rsa-1` and `ec-1`.
  static func with<T: Sendable>(_ body: (TestOpenIDProvider) async throws -> T) async throws -> T {
    let rsa = Self.rsaKeys[0]
    let ec = P256.Signing.PrivateKey()
    let state = Locked<(keys: [JSON], fetches: Int)>(([try jwk(rsa.publicKey, kid: "rsa-1"), jwk(ec.publicKey, kid: "ec-1")], 0))
    let router = Router()
    let ports = AsyncStream<Int>.makeStream()
    router.get("/.well-known/openid-configuration") { request, context -> Response in
      let host = request.head.authority ?? "127.0.0.1"
      return json([
        "issuer": .string("http://\(host)"), "jwks_uri": .string("http://\(host)/jwks"),
        "id_token_signing_alg_values_supported": ["RS256", "ES256"],
        "authorization_endpoint": .string("http://\(host)/authorize"), "token_endpoint": .string("http://\(host)/token"),
      ])
    }
    let grants = Locked<(tokens: [String: String], exchanges: [[String: String]])>(([:], []))
    router.post("/token") { request, _ -> Response in
      let body = try await request.body.collect(upTo: 1 << 16)
      var form: [String: String] = [:]
      for pair in String(buffer: body).split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
        if parts.count == 2 { form[parts[0]] = parts[1] }
      }
      let idToken = grants.withLock { grants in
        grants.exchanges.append(form)
        return form["code"].flatMap { grants.tokens.removeValue(forKey: $0) }
      }
      guard let idToken else {
        return Response(
          status: .badRequest, headers: [.contentType: "application/json"],
          body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant","error_description":"The code is unknown or used."}"#)))
      }
      return json(["access_token": "access", "token_type": "Bearer", "id_token": .string(idToken)])
    }
    router.get("/jwks") { _, _ -> Response in
      let keys = state.withLock { state in
        state.fetches += 1
        return state.keys
      }
      return json(["keys": .array(keys)])
    }
    // Stopped by cancelling its task, which Hummingbird logs as errors: a test's provider, not
    // the server under test, so its log is off.
    var quiet = Logger(label: "test-openid-provider")
    quiet.logLevel = .critical
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        ports.continuation.yield(channel.localAddress?.port ?? 0)
        ports.continuation.finish()
      }, logger: quiet)
    let server = Task { try await app.runService() }
    defer { server.cancel() }
    var port = 0
    for await bound in ports.stream { port = bound }
    return try await body(TestOpenIDProvider(port: port, rsa: rsa, ec: ec, state: state, grants: grants))
  }

  /// The user signed in at the provider: `code` is exchanged (once) for `idToken`.
  func grant(code: String, idToken: String) { grants.withLock { $0.tokens[code] = idToken } }

  /// The forms the token endpoint received, in order.
  var exchanges: [[String: String]] { grants.withLock { $0.exchanges } }

  /// RSA keys made once per test process: [0] every provider's own, [1] one no provider publishes
  /// (a forger's), [2] one a test rotates to. A 2048-bit key takes seconds to make in a debug
  /// build, on one of the suite's two pool threads; making one per test starved the others.
  static let rsaKeys: [_RSA.Signing.PrivateKey] = (0..<3).map { _ in
    try! _RSA.Signing.PrivateKey(keySize: .bits2048)
  }

  /// Publishes these keys from now on (the provider rotated them).
  func publish(_ keys: [JSON]) { state.withLock { $0.keys = keys } }

  /// A token with `claims`, signed as `alg` under `kid` — by the provider's own key, or by
  /// `rsaKey` when given (one it never published).
  func token(
    _ claims: JSONObject, alg: String = "RS256", kid: String? = nil, rsaKey: _RSA.Signing.PrivateKey? = nil
  ) throws -> String {
    var header: JSONObject = ["alg": .string(alg), "typ": "JWT"]
    header["kid"] = .string(kid ?? (alg == "ES256" ? "ec-1" : "rsa-1"))
    let input = Self.base64URL(Data(JSON.object(header).serialized().utf8)) + "." + Self.base64URL(Data(JSON.object(claims).serialized().utf8))
    let signature: Data =
      switch alg {
      case "RS256":
        try (rsaKey ?? rsa).signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5).rawRepresentation
      case "ES256": try ec.signature(for: SHA256.hash(data: Data(input.utf8))).rawRepresentation
      default: Data()
      }
    return input + "." + Self.base64URL(signature)
  }

  /// The claims of a good token for `clientID`, valid for an hour.
  func claims(email: String, clientID: String, nonce: String? = nil) -> JSONObject {
    let now = Date().timeIntervalSince1970
    var claims: JSONObject = [
      "iss": .string(issuer), "aud": .string(clientID), "sub": "subject-1", "email": .string(email),
      "email_verified": true, "iat": .number(now.rounded(.down)), "exp": .number(now + 3_600),
    ]
    if let nonce { claims["nonce"] = .string(nonce) }
    return claims
  }

  static func jwk(_ key: _RSA.Signing.PublicKey, kid: String) throws -> JSON {
    let primitives = try key.getKeyPrimitives()
    return [
      "kty": "RSA", "kid": .string(kid), "alg": "RS256", "use": "sig",
      "n": .string(base64URL(primitives.modulus)), "e": .string(base64URL(primitives.publicExponent)),
    ]
  }

  static func jwk(_ key: P256.Signing.PublicKey, kid: String) -> JSON {
    let raw = key.rawRepresentation
    return [
      "kty": "EC", "kid": .string(kid), "crv": "P-256", "alg": "ES256", "use": "sig",
      "x": .string(base64URL(raw.prefix(32))), "y": .string(base64URL(raw.suffix(32))),
    ]
  }

  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  private static func json(_ value: JSON) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized())))
  }
}
