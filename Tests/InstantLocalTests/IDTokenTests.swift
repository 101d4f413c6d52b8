import Clocks
import Crypto
import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
import _CryptoExtras
internal import OrderedCollections

@testable import InstantLocal

/// Sign-in with an ID token (docs/instant-local.md, "Sign in with an ID token"; docs/security.md):
/// a token counts only when its provider signed it, for one of the app's OAuth clients, with every
/// claim in order. The provider is a real one on loopback (`TestOpenIDProvider`), with keys the
/// test makes.
@Suite("ID-token sign-in", .timeLimit(.minutes(10)))
struct IDTokenTests {
  static let clientID = "client-123"

  /// Runs `body` with a server whose app has the OAuth client `web` of `provider`.
  func withApp(
    unverified: Bool = false, audiences: [String] = [],
    _ body: (InstantLocalServer, String, TestOpenIDProvider) async throws -> Void
  ) async throws {
    try await TestOpenIDProvider.with { provider in
      var configuration = InstantLocalConfiguration.testing()
      configuration.unverifiedIDTokens = unverified
      try await withInstantLocal(configuration: configuration) { server in
        let app = try server.apps.create(title: "ID tokens")
        try server.apps.addOAuthClient(
          appID: app.id,
          OAuthClient(
            name: "web", provider: .oidc, clientID: Self.clientID, discoveryEndpoint: provider.discoveryEndpoint,
            audiences: audiences))
        try await body(server, app.id, provider)
      }
    }
  }

  func signIn(
    _ server: InstantLocalServer, _ appID: String, _ token: String, client: String = "web", nonce: String? = nil
  ) async throws -> (Int, JSON) {
    var body: JSONObject = ["app_id": .string(appID), "client_name": .string(client), "id_token": .string(token)]
    if let nonce { body["nonce"] = .string(nonce) }
    let (status, answer) = try await server.http("POST", "/runtime/oauth/id_token", body: .object(body))
    #expect(!answer.serialized().contains(token), "the answer never echoes the token")
    return (status, answer)
  }

  /// An unsigned token (`alg: none`), as the issue's attacker made it.
  static func unsigned(_ claims: JSONObject) -> String {
    TestOpenIDProvider.base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
      + TestOpenIDProvider.base64URL(Data(JSON.object(claims).serialized().utf8)) + "."
  }

  @Test("A token the provider signed for the client signs in, RS256 or ES256: the same user by email")
  func signsIn() async throws {
    try await withApp { server, appID, provider in
      let claims = provider.claims(email: "Ann@Example.com", clientID: Self.clientID)
      let (status, answer) = try await signIn(server, appID, try provider.token(claims))
      #expect(status == 200, "\(answer)")
      #expect(answer["user"]?["email"] == "ann@example.com")
      #expect(answer["user"]?["refresh_token"]?.stringValue != nil)
      let (again, second) = try await signIn(server, appID, try provider.token(claims, alg: "ES256"))
      #expect(again == 200, "\(second)")
      #expect(second["user"]?["id"] == answer["user"]?["id"])
    }
  }

  @Test("Forged tokens claiming anyone are refused: alg none, a key the provider never published, HS256, a client the app lacks")
  func forgeries() async throws {
    try await withApp { server, appID, provider in
      let victim = provider.claims(email: "victim@example.com", clientID: Self.clientID)
      let cases: [(String, String, String)] = [
        ("alg none", Self.unsigned(victim), "Unsupported signing algorithm none"),
        ("made-up key, published kid", try provider.token(victim, rsaKey: TestOpenIDProvider.rsaKeys[1]),
         "Error validating JWT. Signature is invalid."),
        ("made-up kid", try provider.token(victim, kid: "someone-else"), "Error validating JWT. Could not find signing key."),
        ("HS256", try provider.token(victim, alg: "HS256"), "Unsupported signing algorithm HS256"),
      ]
      for (what, token, message) in cases {
        let (status, answer) = try await signIn(server, appID, token)
        #expect(status == 400, "\(what): \(answer)")
        #expect(answer["type"] == "oauth-error", "\(what)")
        #expect(answer["message"]?.stringValue == message, "\(what): \(answer)")
      }
      // A client name the app does not have: refused before the token is read, even one the
      // provider signed.
      for token in [Self.unsigned(victim), try provider.token(victim)] {
        let (status, answer) = try await signIn(server, appID, token, client: "google")
        #expect(status == 400)
        #expect(answer["type"] == "record-not-found")
        #expect(answer["hint"]?["record-type"] == "app-oauth-client", "\(answer)")
      }
    }
  }

  @Test("Each claim is checked: audience, issuer, expiry, not-before, subject, verified email")
  func claims() async throws {
    try await withApp(audiences: ["com.example.ios"]) { server, appID, provider in
      let good = provider.claims(email: "bo@example.com", clientID: Self.clientID)
      func with(_ change: (inout JSONObject) -> Void) -> JSONObject {
        var claims = good
        change(&claims)
        return claims
      }
      let now = Date().timeIntervalSince1970
      let refused: [(String, JSONObject, String)] = [
        ("another app's token", with { $0["aud"] = "someone-elses-client" }, "The id_token was generated for the wrong OAuth client."),
        ("no audience", with { $0["aud"] = nil }, "The id_token was generated for the wrong OAuth client."),
        ("another issuer", with { $0["iss"] = "https://evil.example.com" }, "The id_token wasn't issued by \(provider.issuer)."),
        ("expired", with { $0["exp"] = .number(now - 5) }, "Error validating JWT. Token is expired."),
        ("no expiry", with { $0["exp"] = nil }, "Error validating JWT. Token is expired."),
        ("not yet valid", with { $0["nbf"] = .number(now + 600) }, "Error validating JWT. The token can't be used yet."),
        ("no subject", with { $0["sub"] = nil }, "The id_token had no subject."),
        ("email not verified", with { $0["email_verified"] = false }, "The id_token has no verified email."),
        ("\"true\" as a string", with { $0["email_verified"] = "true" }, "The id_token has no verified email."),
      ]
      for (what, claims, message) in refused {
        let (status, answer) = try await signIn(server, appID, try provider.token(claims))
        #expect(status == 400, "\(what): \(answer)")
        let said = answer["message"]?.stringValue ?? ""
        #expect(said == message || said == "Validation failed for id_token: \(message)", "\(what): \(answer)")
      }
      // An audience among the client's others (an iOS app's bundle id), and one in a list.
      for aud: JSON in ["com.example.ios", ["x", .string(Self.clientID)]] {
        let (status, answer) = try await signIn(server, appID, try provider.token(with { $0["aud"] = aud }))
        #expect(status == 200, "aud \(aud): \(answer)")
      }
    }
  }

  @Test("The nonce: the one sent or its SHA-256 in hex; a missing or different one is refused")
  func nonce() async throws {
    try await withApp { server, appID, provider in
      let raw = "n-0S6_WzA2Mj"
      let hashed = SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
      for (inToken, sent, expected) in [
        (raw, raw, nil), (hashed, raw, nil), (raw, "other", "The nonces do not match."),
        (raw, nil, "The nonce parameter was not provided in the request."), (nil, raw, "The id_token is missing a nonce."),
      ] as [(String?, String?, String?)] {
        let claims = provider.claims(email: "cy@example.com", clientID: Self.clientID, nonce: inToken)
        let (status, answer) = try await signIn(server, appID, try provider.token(claims), nonce: sent)
        if let expected {
          #expect(status == 400, "\(String(describing: inToken)) / \(String(describing: sent))")
          #expect(answer["message"]?.stringValue?.hasSuffix(expected) == true, "\(answer)")
        } else {
          #expect(status == 200, "\(answer)")
        }
      }
    }
  }

  @Test("--unverified-id-tokens reads an unconfigured client's token unchecked; a configured client is still verified")
  func unverifiedDevelopmentMode() async throws {
    try await withApp(unverified: true) { server, appID, provider in
      let claims = provider.claims(email: "dev@example.com", clientID: "anything")
      let (status, answer) = try await signIn(server, appID, Self.unsigned(claims), client: "google")
      #expect(status == 200, "\(answer)")
      #expect(answer["user"]?["email"] == "dev@example.com")
      let (configured, refusal) = try await signIn(server, appID, Self.unsigned(claims), client: "web")
      #expect(configured == 400)
      #expect(refusal["type"] == "oauth-error")
    }
  }

  @Test("A rotated key is fetched once; made-up key ids do not make the server fetch again and again")
  func keyRotation() async throws {
    try await TestOpenIDProvider.with { provider in
      let clock = ManualClock()
      let directory = OpenIDDirectory(clock: ServerClock(clock, wallTimeAtStart: Date()))
      let check = IDTokenCheck(directory: directory)
      let client = OAuthClient(name: "web", provider: .oidc, clientID: Self.clientID, discoveryEndpoint: provider.discoveryEndpoint)
      let claims = provider.claims(email: "di@example.com", clientID: Self.clientID)
      #expect(try await check.verify(try provider.token(claims), client: client, nonce: nil).email == "di@example.com")
      #expect(provider.jwksFetches == 1)

      // Made-up key ids, many of them: one fetch at most per interval.
      for index in 0..<20 {
        await #expect(throws: ServerError.self) {
          try await check.verify(try provider.token(claims, kid: "made-up-\(index)"), client: client, nonce: nil)
        }
      }
      #expect(provider.jwksFetches == 1, "within the interval, an unknown kid is refused without a fetch")

      // The provider rotates to a new key: after the interval, its first token fetches the keys again.
      let rotated = TestOpenIDProvider.rsaKeys[2]
      provider.publish([try TestOpenIDProvider.jwk(rotated.publicKey, kid: "rsa-2")])
      clock.advance(by: OpenIDDirectory.refetchInterval)
      let token = try provider.token(claims, kid: "rsa-2", rsaKey: rotated)
      #expect(try await check.verify(token, client: client, nonce: nil).email == "di@example.com")
      #expect(provider.jwksFetches == 2)
      #expect(try await check.verify(token, client: client, nonce: nil).email == "di@example.com")
      #expect(provider.jwksFetches == 2, "a known key is not fetched again")
    }
  }

  @Test("OAuth clients: added, listed, replaced and removed through the catalog; bad ones are clear errors")
  func catalog() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Clients")
      let google = OAuthClient(name: "google-web", provider: .google, clientID: "123.apps.googleusercontent.com")
      try server.apps.addOAuthClient(appID: app.id, google)
      #expect(try server.apps.oauthClients(appID: app.id) == [google])
      #expect(google.endpoint?.absoluteString == "https://accounts.google.com/.well-known/openid-configuration")
      var replaced = google
      replaced.audiences = ["456.apps.googleusercontent.com"]
      try server.apps.addOAuthClient(appID: app.id, replaced)
      #expect(try server.apps.oauthClients(appID: app.id) == [replaced])

      let bad: [(OAuthClient, String)] = [
        (OAuthClient(name: "x", provider: .oidc, clientID: "c"), "discovery endpoint"),
        (OAuthClient(name: "x", provider: .oidc, clientID: "c", discoveryEndpoint: URL(string: "http://example.com/.well-known/openid-configuration")!), "https"),
        (OAuthClient(name: " ", provider: .google, clientID: "c"), "name"),
        (OAuthClient(name: "x", provider: .google, clientID: ""), "client id"),
      ]
      for (client, mention) in bad {
        let error = #expect(throws: InstantLocalError.self) { try server.apps.addOAuthClient(appID: app.id, client) }
        #expect(error.map { "\($0)" }?.contains(mention) == true, "\(String(describing: error))")
      }
      #expect(throws: InstantLocalError.self) { try server.apps.addOAuthClient(appID: UUID().uuidString, google) }
      try server.apps.removeOAuthClient(appID: app.id, name: "google-web")
      #expect(try server.apps.oauthClients(appID: app.id).isEmpty)
      #expect(throws: InstantLocalError.self) { try server.apps.removeOAuthClient(appID: app.id, name: "google-web") }
    }
  }
}
