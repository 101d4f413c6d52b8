import Foundation
import InstantCore
import InstantDB
import InstantLocalTesting
import NIOConcurrencyHelpers
import TestSupport
import Testing
internal import OrderedCollections

@testable import InstantLocal

/// The OAuth web flow (docs/instant-local.md, "Sign in with OAuth in a browser"; docs/security.md):
/// the test is the browser, `TestOpenIDProvider` on loopback is the provider (its token endpoint
/// hands out ID tokens it signs), and our client starts the sign-in and exchanges the code.
@Suite("OAuth web flow", .timeLimit(.minutes(10)))
struct OAuthWebFlowTests {
  static let clientID = "web-client"
  static let secret = "provider-secret-\(UUID().uuidString)"

  struct Context {
    var server: InstantLocalServer
    var provider: TestOpenIDProvider
    var appID: String
    var port: Int
    var client: InstantClient
  }

  /// A server whose app has the client `corp` (with a secret) and the redirect origins `myapp` and
  /// `http://localhost:3000`, and our client for the app.
  func withApp(secret: String? = OAuthWebFlowTests.secret, _ body: (Context) async throws -> Void) async throws {
    try await TestOpenIDProvider.with { provider in
      try await withInstantLocal(configuration: .testing()) { server in
        let app = try server.apps.create(title: "Web sign-in")
        try server.apps.addOAuthClient(
          appID: app.id,
          OAuthClient(
            name: "corp", provider: .oidc, clientID: Self.clientID, discoveryEndpoint: provider.discoveryEndpoint, clientSecret: secret))
        try server.apps.addRedirectOrigin(appID: app.id, try #require(RedirectOrigin.scheme("myapp")))
        try server.apps.addRedirectOrigin(appID: app.id, try #require(RedirectOrigin.origin("http://localhost:3000")))
        let port = try await server.boundPort
        let client = InstantClient(
          appId: app.id, apiURI: try #require(await server.baseURL), websocketURI: try #require(await server.webSocketURL),
          storage: .memory)
        try await body(Context(server: server, provider: provider, appID: app.id, port: port, client: client))
        await client.shutdown()
      }
    }
  }

  /// A request over a raw connection, so redirects are seen rather than followed.
  static func raw(_ port: Int, _ request: String) async throws -> RawConnection.Response {
    try #require(try await RawConnection.with(port: port) { session in
      _ = await session.send(request)
      return await session.readResponse()
    })
  }

  static func get(_ port: Int, _ url: URL, cookie: String? = nil) async throws -> RawConnection.Response {
    let target = url.path + (url.query.map { "?\($0)" } ?? "")
    let cookieLine = cookie.map { "Cookie: \($0)\r\n" } ?? ""
    return try await raw(port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookieLine)Connection: close\r\n\r\n")
  }

  /// The provider's `form_post` back to the server.
  static func postCallback(_ port: Int, _ fields: [(String, String)], cookie: String?) async throws -> RawConnection.Response {
    let body = FormEncoding.encode(fields)
    let cookieLine = cookie.map { "Cookie: \($0)\r\n" } ?? ""
    return try await raw(
      port,
      "POST /runtime/oauth/callback HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookieLine)Content-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
  }

  /// What the start sent the browser to, and the cookie it set.
  struct Started {
    var authorize: URLComponents
    var cookie: String
    var setCookie: String
    func param(_ name: String) -> String? { authorize.queryItems?.first { $0.name == name }?.value }
  }

  static func start(_ context: Context, redirect: String = "myapp://signed-in", pkce: PKCE? = PKCE()) async throws -> Started {
    let url = context.client.createAuthorizationURL(clientName: "corp", redirectURL: URL(string: redirect)!, pkce: pkce)
    let response = try await get(context.port, url)
    #expect(response.status == 302, "\(response.statusLine) \(response.body)")
    let location = try #require(response.headers["location"].flatMap(URLComponents.init(string:)))
    let setCookie = try #require(response.headers["set-cookie"])
    return Started(authorize: location, cookie: String(setCookie.split(separator: ";")[0]), setCookie: setCookie)
  }

  /// The provider's side: the user signs in as `email`, and the provider sends the browser back.
  static func returnFromProvider(
    _ context: Context, _ started: Started, email: String = "ann@example.com", nonce: String? = nil, cookie: String? = nil
  ) async throws -> RawConnection.Response {
    var claims = context.provider.claims(email: email, clientID: clientID, nonce: nonce ?? started.param("nonce"))
    claims["sub"] = "corp-user-1"
    let code = "provider-code-\(UUID().uuidString)"
    context.provider.grant(code: code, idToken: try context.provider.token(claims))
    return try await postCallback(
      context.port, [("code", code), ("state", try #require(started.param("state")))], cookie: cookie ?? started.cookie)
  }

  /// The app's URL a callback page or redirect sends the browser to.
  static func appURL(_ response: RawConnection.Response) throws -> URLComponents {
    if response.status == 302 { return try #require(response.headers["location"].flatMap(URLComponents.init(string:))) }
    let start = try #require(response.body.range(of: "url=")?.upperBound)
    let end = try #require(response.body[start...].firstIndex(of: "\""))
    let href = response.body[start..<end].replacingOccurrences(of: "&amp;", with: "&")
    return try #require(URLComponents(string: href))
  }

  static func value(_ name: String, _ components: URLComponents) -> String? {
    components.queryItems?.first { $0.name == name }?.value
  }

  @Test("Start, provider, callback and code exchange with PKCE sign the user in once; the provider got the secret")
  func signsIn() async throws {
    try await withApp { context in
      let pkce = PKCE()
      let started = try await Self.start(context, pkce: pkce)
      let base = try #require(await context.server.baseURL)
      #expect(started.authorize.path == "/authorize")
      #expect(started.param("client_id") == Self.clientID)
      #expect(started.param("redirect_uri") == base.appendingPathComponent("runtime/oauth/callback").absoluteString)
      #expect(started.param("response_type") == "code")
      #expect(started.param("response_mode") == "form_post")
      #expect(started.param("scope") == "openid email")
      #expect(started.param("nonce")?.count == 36)
      #expect(started.setCookie.contains("HttpOnly"))
      #expect(started.setCookie.contains("Path=/runtime/oauth"))
      #expect(!started.authorize.string!.contains(pkce.verifier), "the verifier never leaves the app")

      let back = try await Self.returnFromProvider(context, started)
      #expect(back.status == 200, "a native app's scheme gets a page that opens it: \(back.statusLine)")
      #expect(back.headers["set-cookie"]?.contains("Max-Age=0") == true, "the flow's cookie is spent")
      let app = try Self.appURL(back)
      #expect(app.scheme == "myapp")
      #expect(Self.value("_instant_oauth_redirect", app) == "true")
      let code = try #require(Self.value("code", app))

      let exchange = try #require(context.provider.exchanges.last)
      #expect(exchange["client_secret"] == Self.secret)
      #expect(exchange["client_id"] == Self.clientID)
      #expect(exchange["grant_type"] == "authorization_code")
      #expect(exchange["redirect_uri"] == started.param("redirect_uri"))

      let user = try await context.client.exchangeOAuthCode(code: code, codeVerifier: pkce.verifier)
      #expect(user.email == "ann@example.com")
      #expect(await context.client.authState == .signedIn(user))

      // The code is spent, whoever asks.
      let again = try await context.server.http(
        "POST", "/runtime/oauth/token",
        body: ["app_id": .string(context.appID), "code": .string(code), "code_verifier": .string(pkce.verifier)])
      #expect(again.0 == 400)
      #expect(again.1["type"] == "record-not-found")
      #expect(again.1["hint"]?["record-type"] == "app-oauth-code")
    }
  }

  @Test("A web origin gets a 302 back with the app's own state; the token route reads a form body too")
  func webOriginRedirect() async throws {
    try await withApp { context in
      let url = context.client.createAuthorizationURL(
        clientName: "corp", redirectURL: URL(string: "http://localhost:3000/done?state=app-state")!)
      let response = try await Self.get(context.port, url)
      #expect(response.status == 302)
      let location = try #require(response.headers["location"].flatMap(URLComponents.init(string:)))
      let started = Started(
        authorize: location, cookie: String(try #require(response.headers["set-cookie"]).split(separator: ";")[0]), setCookie: "")
      let back = try await Self.returnFromProvider(context, started, email: "Bob@Example.com")
      #expect(back.status == 302)
      let app = try Self.appURL(back)
      #expect(app.host == "localhost" && app.port == 3000 && app.path == "/done")
      #expect(Self.value("state", app) == "app-state")
      let code = try #require(Self.value("code", app))
      let form = FormEncoding.encode([("app_id", context.appID), ("code", code)])
      let answer = try await Self.raw(
        context.port,
        "POST /runtime/oauth/token HTTP/1.1\r\nHost: 127.0.0.1:\(context.port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
          + "Origin: http://localhost:3000\r\nContent-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n\(form)")
      #expect(answer.status == 200, "\(answer.body)")
      let json = try JSON.parse(answer.body)
      #expect(json["user"]?["email"] == "bob@example.com")
      #expect(json["refresh_token"]?.stringValue?.isEmpty == false)
    }
  }

  @Test(
    "A redirect_uri that is not one of the app's origins is refused before anything is kept",
    arguments: ["https://evil.example.com/steal", "evil://x", "http://localhost:3001/", "https://localhost:3000/", "javascript:alert(1)", "not a url"])
  func unauthorizedRedirect(redirect: String) async throws {
    try await withApp { context in
      var components = URLComponents(url: context.client.apiURI.appendingPathComponent("runtime/oauth/start"), resolvingAgainstBaseURL: false)!
      components.queryItems = [
        URLQueryItem(name: "app_id", value: context.appID), URLQueryItem(name: "client_name", value: "corp"),
        URLQueryItem(name: "redirect_uri", value: redirect),
      ]
      let response = try await Self.get(context.port, components.url!)
      #expect(response.status == 400)
      #expect(response.headers["set-cookie"] == nil)
      #expect(response.body.contains("Invalid redirect_uri"), "\(response.body)")
    }
  }

  @Test("The callback needs the browser's own cookie, and a state works once")
  func cookieBindsTheFlow() async throws {
    try await withApp { context in
      let missing = try await Self.start(context)
      let noCookie = try await Self.postCallback(
        context.port, [("code", "x"), ("state", try #require(missing.param("state")))], cookie: "")
      #expect(noCookie.status == 400)
      #expect(noCookie.body.contains("Missing cookie."), "\(noCookie.body)")

      let stolen = try await Self.start(context)
      let other = try await Self.start(context)
      // An attacker's own flow cookie with the victim's state: refused.
      let mismatch = try await Self.returnFromProvider(context, stolen, cookie: other.cookie)
      #expect(mismatch.status == 400)
      #expect(mismatch.body.contains("Mismatch in OAuth request cookie."), "\(mismatch.body)")

      let good = try await Self.start(context)
      #expect(try await Self.returnFromProvider(context, good).status == 200)
      let replay = try await Self.returnFromProvider(context, good)
      #expect(replay.status == 400)
      #expect(replay.body.contains("Could not find OAuth request."))
    }
  }

  @Test("An ID token the flow did not ask for (another nonce), or signed with a key the provider never published, returns an error, not a code")
  func idTokenVerified() async throws {
    try await withApp { context in
      let started = try await Self.start(context)
      let back = try await Self.returnFromProvider(context, started, nonce: "someone-elses-nonce")
      let app = try Self.appURL(back)
      #expect(Self.value("code", app) == nil)
      #expect(Self.value("error", app)?.contains("nonce") == true, "\(app)")

      let forged = try await Self.start(context)
      var claims = context.provider.claims(email: "ann@example.com", clientID: Self.clientID, nonce: forged.param("nonce"))
      claims["sub"] = "x"
      let code = "forged-\(UUID().uuidString)"
      context.provider.grant(code: code, idToken: try context.provider.token(claims, rsaKey: TestOpenIDProvider.rsaKeys[1]))
      let forgedBack = try await Self.postCallback(
        context.port, [("code", code), ("state", try #require(forged.param("state")))], cookie: forged.cookie)
      #expect(Self.value("code", try Self.appURL(forgedBack)) == nil)
      #expect(Self.value("error", try Self.appURL(forgedBack))?.contains("Signature is invalid") == true)
    }
  }

  @Test("A provider error (the user cancelled) goes back to the app as error=…")
  func providerError() async throws {
    try await withApp { context in
      let started = try await Self.start(context)
      let back = try await Self.postCallback(
        context.port,
        [("error", "access_denied"), ("error_description", "The user said no."), ("state", try #require(started.param("state")))],
        cookie: started.cookie)
      let app = try Self.appURL(back)
      #expect(Self.value("error", app) == "The user said no.")
      #expect(Self.value("code", app) == nil)
    }
  }

  @Test("PKCE: a wrong verifier, or none, is refused and the code is spent all the same")
  func pkceRefusals() async throws {
    try await withApp { context in
      let pkce = PKCE()
      let started = try await Self.start(context, pkce: pkce)
      let code = try #require(Self.value("code", try Self.appURL(try await Self.returnFromProvider(context, started))))
      let wrong = try await context.server.http(
        "POST", "/runtime/oauth/token", body: ["app_id": .string(context.appID), "code": .string(code), "code_verifier": "guess"])
      #expect(wrong.0 == 400)
      #expect(wrong.1["message"]?.stringValue?.contains("do not match") == true, "\(wrong.1)")
      await #expect(throws: InstantClientError.self) { try await context.client.exchangeOAuthCode(code: code, codeVerifier: pkce.verifier) }

      let second = try await Self.start(context, pkce: PKCE())
      let secondCode = try #require(Self.value("code", try Self.appURL(try await Self.returnFromProvider(context, second))))
      let none = try await context.server.http(
        "POST", "/runtime/oauth/token", body: ["app_id": .string(context.appID), "code": .string(secondCode)])
      #expect(none.0 == 400)
      #expect(none.1["message"]?.stringValue?.contains("no code_verifier") == true, "\(none.1)")
    }
  }

  @Test("The token route refuses a page whose Origin is not the app's, and a code of another app")
  func tokenOrigin() async throws {
    try await withApp { context in
      let started = try await Self.start(context, pkce: nil)
      let code = try #require(Self.value("code", try Self.appURL(try await Self.returnFromProvider(context, started))))
      let body = (["app_id": .string(context.appID), "code": .string(code)] as JSON).serialized()
      let answer = try await Self.raw(
        context.port,
        "POST /runtime/oauth/token HTTP/1.1\r\nHost: 127.0.0.1:\(context.port)\r\nContent-Type: application/json\r\n"
          + "Origin: https://evil.example.com\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
      #expect(answer.status == 400)
      #expect(answer.body.contains("Unauthorized origin."), "\(answer.body)")

      let other = try context.server.apps.create(title: "Other")
      let next = try await Self.start(context, pkce: nil)
      let nextCode = try #require(Self.value("code", try Self.appURL(try await Self.returnFromProvider(context, next))))
      let elsewhere = try await context.server.http(
        "POST", "/runtime/oauth/token", body: ["app_id": .string(other.id), "code": .string(nextCode)])
      #expect(elsewhere.0 == 400)
      #expect(elsewhere.1["type"] == "record-not-found")
    }
  }

  @Test("A token request whose JSON body does not parse is refused by name, and spends no code")
  func malformedTokenBody() async throws {
    try await withApp { context in
      let started = try await Self.start(context, pkce: nil)
      let code = try #require(Self.value("code", try Self.appURL(try await Self.returnFromProvider(context, started))))
      let body = "{\"app_id\": \"\(context.appID)\", \"code\": \"\(code)\""
      let answer = try await Self.raw(
        context.port,
        "POST /runtime/oauth/token HTTP/1.1\r\nHost: 127.0.0.1:\(context.port)\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
      #expect(answer.status == 400)
      #expect(answer.body.contains("param-malformed"), "\(answer.body)")
      let user = try await context.client.exchangeOAuthCode(code: code)
      #expect(user.email == "ann@example.com", "the refused request did not spend the code")
    }
  }

  @Test("A client without a secret has no web flow; an unknown client is record-not-found")
  func clientsWithoutSecret() async throws {
    try await withApp(secret: nil) { context in
      let response = try await Self.get(
        context.port, context.client.createAuthorizationURL(clientName: "corp", redirectURL: URL(string: "myapp://x")!))
      #expect(response.status == 400)
      #expect(response.body.contains("has no client secret"), "\(response.body)")
      let unknown = try await Self.get(
        context.port, context.client.createAuthorizationURL(clientName: "nope", redirectURL: URL(string: "myapp://x")!))
      #expect(unknown.body.contains("app-oauth-client"))
    }
  }

  @Test("Expo's discovery document names the start and token routes under the app")
  func discoveryDocument() async throws {
    try await withApp { context in
      let (status, document) = try await context.server.http("GET", "/runtime/\(context.appID)/.well-known/openid-configuration")
      #expect(status == 200)
      #expect(document["authorization_endpoint"]?.stringValue?.hasSuffix("/runtime/\(context.appID)/oauth/start") == true)
      #expect(document["token_endpoint"]?.stringValue?.hasSuffix("/runtime/\(context.appID)/oauth/token") == true)
    }
  }

  @Test("PKCE as RFC 7636 defines it: its own example, plain, and an unknown method")
  func pkceCheck() throws {
    // RFC 7636, appendix B.
    let example = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(example.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    try OAuthWebFlow.checkPKCE(challenge: example.challenge, method: "S256", verifier: example.verifier)
    try OAuthWebFlow.checkPKCE(challenge: example.challenge + "=", method: "S256", verifier: example.verifier)
    try OAuthWebFlow.checkPKCE(challenge: "abc", method: "plain", verifier: "abc")
    try OAuthWebFlow.checkPKCE(challenge: nil, method: nil, verifier: nil)
    #expect(throws: ServerError.self) { try OAuthWebFlow.checkPKCE(challenge: example.challenge, method: nil, verifier: example.verifier) }
    #expect(throws: ServerError.self) { try OAuthWebFlow.checkPKCE(challenge: "abc", method: "plain", verifier: "abd") }
    #expect(throws: ServerError.self) { try OAuthWebFlow.checkPKCE(challenge: nil, method: nil, verifier: "abc") }
    #expect(PKCE().verifier.count == 43)
    #expect(PKCE() != PKCE())
  }

  @Test("Flows and codes expire (10 and 5 minutes) and are single use; the store is bounded")
  func flowsExpire() async throws {
    let clock = NIOLockedValueBox(Date(timeIntervalSince1970: 1_000_000))
    let flows = OAuthFlows(now: { clock.withLockedValue { $0 } }, capacity: 50)
    func started(_ hash: String, _ at: Date) -> OAuthFlows.Started {
      .init(appID: "a", clientName: "c", redirectURL: URL(string: "myapp://x")!, cookieHash: hash, nonce: "n", at: at)
    }
    let first = try #require(await flows.start(started))
    clock.withLockedValue { $0 += 601 }
    guard case .failure = try #require(await flows.finish(state: first.state)) else { Issue.record("an old flow finished"); return }
    #expect(await flows.finish(state: first.state) == nil, "gone after one look")
    let second = try #require(await flows.start(started))
    clock.withLockedValue { $0 += 599 }
    guard case .success = try #require(await flows.finish(state: second.state)) else { Issue.record("a fresh flow refused"); return }

    let code = try #require(await flows.issue { .init(appID: "a", email: "e", at: $0) })
    clock.withLockedValue { $0 += 301 }
    guard case .failure = try #require(await flows.redeem(code: code)) else { Issue.record("an old code redeemed"); return }
    #expect(await flows.redeem(code: code) == nil)

    for _ in 0..<50 { _ = await flows.start(started) }
    #expect(await flows.start(started) == nil, "a full store refuses a new flow")
    clock.withLockedValue { $0 += 601 }
    #expect(await flows.start(started) != nil, "expired flows make room")
  }
}
