import Crypto
import Foundation
import InstantCore
import OrderedCollections

/// The OAuth web flow, as InstantDB's server runs it (docs/instant-local.md, "Sign in with OAuth in
/// a browser"): `/runtime/oauth/start` sends the browser to the provider; the provider sends it
/// back to `/runtime/oauth/callback` with a code, which the server exchanges for the user's ID
/// token (verified as ``IDTokenCheck`` verifies any); the browser then returns to the app with a
/// code of ours, which the app exchanges at `/runtime/oauth/token` (with its PKCE verifier) for a
/// refresh token.
struct OAuthWebFlow: Sendable {
  let storage: LocalStorage
  let directory: OpenIDDirectory
  let check: IDTokenCheck
  let flows: OAuthFlows
  /// The address browsers reach this server at (`--public-url`, else the bound one): the
  /// callback the provider returns to is under it.
  let publicBase: @Sendable () -> URL?

  static let cookieName = "__session"
  static let cookiePrefix = "instantdb_"

  /// `GET /runtime/oauth/start`'s answer: where to send the browser, and the cookie that binds the
  /// flow to it (so nobody can finish a sign-in in someone else's browser).
  struct Start {
    var location: URL
    var setCookie: String
  }

  /// Starts a sign-in for `appID` with the request's `client_name`, `redirect_uri` and optional
  /// `state`, `code_challenge` and `code_challenge_method`, checked in the reference's order.
  func start(_ params: [String: String], appID: String) async throws(ServerError) -> Start {
    guard let clientName = Self.nonBlank(params["client_name"]) ?? Self.nonBlank(params["client_id"]) else {
      throw .paramMissing("client_name")
    }
    let client = try self.client(appID, clientName)
    guard client.clientSecret != nil else {
      throw OpenIDDirectory.oauthError(
        "The OAuth client \(clientName) has no client secret, so it signs in with ID tokens only; add one (instant-local apps oauth-clients add --client-secret-file) for the web flow.")
    }
    guard let endpoint = client.endpoint else { throw OpenIDDirectory.oauthError("Unable to fetch OAuth configuration.") }
    let provider = try await directory.provider(at: endpoint)
    guard let authorize = provider.authorizationEndpoint, provider.tokenEndpoint != nil else {
      throw OpenIDDirectory.oauthError("The OAuth provider's configuration has no authorization_endpoint or token_endpoint.")
    }
    guard let redirectText = Self.nonBlank(params["redirect_uri"]) else { throw .paramMissing("redirect_uri") }
    guard let redirect = URL(string: redirectText), RedirectOrigin.allows(redirect, in: try origins(appID)) else {
      throw .validation(
        "redirect-uri", input: .string(redirectText),
        ["Invalid redirect_uri. If you're the developer, make sure to add your website to the list of approved domains (instant-local apps redirect-origins add)."])
    }
    guard let callback = callbackURL() else { throw .serverFault("the server does not know its address yet") }
    let returnTo = params["state"].map { Self.adding(["state": $0], to: redirect) } ?? redirect
    let nonce = OAuthFlows.random()
    let challenge = params["code_challenge"]
    let method = params["code_challenge_method"]
    guard
      let (state, cookie) = await flows.start({ cookieHash, at in
        OAuthFlows.Started(
          appID: appID, clientName: clientName, redirectURL: returnTo, cookieHash: cookieHash, codeChallenge: challenge,
          codeChallengeMethod: method, nonce: nonce, at: at)
      })
    else {
      throw ServerError(.rateLimited, message: "Too many sign-ins are under way. Please try again in a few minutes.", status: 429)
    }
    var query: [(String, String)] = [
      ("client_id", client.clientID), ("redirect_uri", callback.absoluteString), ("response_type", "code"),
      ("response_mode", "form_post"), ("scope", "openid email"), ("state", state), ("nonce", nonce),
    ]
    if let hd = params["hd"] { query.append(("hd", hd)) }
    guard let location = Self.adding(query, to: authorize) else {
      throw OpenIDDirectory.oauthError("The OAuth provider's authorization_endpoint is not a URL.")
    }
    var cookieText = "\(Self.cookieName)=\(Self.cookiePrefix)\(cookie); Path=/runtime/oauth; Max-Age=\(Int(OAuthFlows.startLifetime)); HttpOnly"
    // The provider returns with a cross-site POST (form_post): only a SameSite=None cookie, which
    // must be Secure, comes with it in every browser. Over plain http (development) the cookie can
    // be neither; browsers then treat it as the reference's, Lax.
    if callback.scheme == "https" { cookieText += "; Secure; SameSite=None" }
    return Start(location: location, setCookie: cookieText)
  }

  /// Where `/runtime/oauth/callback` sends the browser: back to the app, with our code or with the
  /// error; or, before the flow is known, a failure shown as it is (400).
  enum Landing {
    case app(URL)
    case failure(ServerError)
  }

  /// The provider's return (`code`, `state`, or `error`; query or form fields) with the request's
  /// `Cookie` header.
  func callback(_ params: [String: String], cookie: String?) async -> Landing {
    guard let state = Self.nonBlank(params["state"]) else {
      return .failure(OpenIDDirectory.oauthError(params["error"] ?? "Missing state param in OAuth redirect."))
    }
    guard let found = await flows.finish(state: state) else {
      return .failure(OpenIDDirectory.oauthError("Could not find OAuth request."))
    }
    guard case let .success(flow) = found else { return .failure(OpenIDDirectory.oauthError("The request is expired.")) }
    guard let sent = Self.sessionCookie(cookie) else { return .failure(OpenIDDirectory.oauthError("Missing cookie.")) }
    guard AdminToken.matches(sent, sha256: flow.cookieHash) else {
      return .failure(OpenIDDirectory.oauthError("Mismatch in OAuth request cookie."))
    }
    func back(_ fields: [(String, String)]) -> Landing {
      .app(Self.adding(fields + [("_instant_oauth_redirect", "true")], to: flow.redirectURL) ?? flow.redirectURL)
    }
    if let error = params["error"] { return back([("error", params["error_description"] ?? error)]) }
    guard let code = Self.nonBlank(params["code"]) else { return back([("error", "Missing code param in OAuth redirect.")]) }
    do throws(ServerError) {
      let email = try await signedInEmail(flow, code: code)
      guard
        let ours = await flows.issue({ at in
          OAuthFlows.Issued(
            appID: flow.appID, email: email, codeChallenge: flow.codeChallenge, codeChallengeMethod: flow.codeChallengeMethod,
            at: at)
        })
      else { return back([("error", "Too many sign-ins are under way. Please try again in a few minutes.")]) }
      return back([("code", ours)])
    } catch {
      return back([("error", error.message)])
    }
  }

  /// Exchanges the provider's `code` for the user's ID token and returns its verified email.
  private func signedInEmail(_ flow: OAuthFlows.Started, code: String) async throws(ServerError) -> String {
    let client = try self.client(flow.appID, flow.clientName)
    guard let endpoint = client.endpoint, let callback = callbackURL() else { throw OpenIDDirectory.oauthError("Missing OAuth client.") }
    let provider = try await directory.provider(at: endpoint)
    guard let tokenEndpoint = provider.tokenEndpoint else {
      throw OpenIDDirectory.oauthError("The OAuth provider's configuration has no token_endpoint.")
    }
    let secret = client.provider == .apple ? try AppleClientSecret.make(for: client, now: directory.clock.now) : client.clientSecret ?? ""
    let tokens = try await directory.exchange(
      at: tokenEndpoint,
      [
        ("client_id", client.clientID), ("client_secret", secret), ("code", code), ("grant_type", "authorization_code"),
        ("redirect_uri", callback.absoluteString),
      ])
    guard let idToken = tokens["id_token"]?.stringValue else {
      throw OpenIDDirectory.oauthError("The OAuth provider's token response has no id_token.")
    }
    let identity = try await check.verify(idToken, client: client, nonce: flow.nonce)
    guard let email = identity.email else { throw OpenIDDirectory.oauthError("Missing user info: the provider gave no verified email.") }
    return email
  }

  /// `POST /runtime/oauth/token`'s check of `code` (and its PKCE `code_verifier`) for `appID`: the
  /// email it signs in. The code is used up first, whatever follows.
  func redeem(_ params: [String: String], appID: String, origin: String?) async throws(ServerError) -> String {
    guard let code = Self.nonBlank(params["code"]) else { throw .paramMissing("code") }
    guard let found = await flows.redeem(code: code) else { throw .recordNotFound("app-oauth-code") }
    guard case let .success(grant) = found else {
      throw ServerError(.recordExpired, message: "Record expired: app-oauth-code", hint: ["record-type": "app-oauth-code"])
    }
    guard grant.appID == appID else { throw .recordNotFound("app-oauth-code") }
    try Self.checkPKCE(challenge: grant.codeChallenge, method: grant.codeChallengeMethod, verifier: params["code_verifier"])
    if let origin, origin != "null" {
      guard let url = URL(string: origin), RedirectOrigin.allows(url, in: try origins(appID)) else {
        throw .validation("origin", input: .string(origin), ["Unauthorized origin."])
      }
    }
    return grant.email
  }

  /// RFC 7636, as the reference checks it: neither a challenge nor a verifier passes; one without
  /// the other fails; `plain` compares them, `S256` compares the challenge with the verifier's
  /// SHA-256 in base64url; any other method (or none) fails.
  static func checkPKCE(challenge: String?, method: String?, verifier: String?) throws(ServerError) {
    func invalid(_ message: String) -> ServerError { .validation("app-oauth-code", input: .null, [message]) }
    switch (challenge, verifier) {
    case (nil, nil): return
    case (nil, _?): throw invalid("The code_verifier was provided, but no code_challenge was provided.")
    case (_?, nil): throw invalid("The code_challenge was provided, but no code_verifier was provided.")
    case let (challenge?, verifier?):
      let expected: String
      switch method {
      case "plain": expected = verifier
      case "S256": expected = JSONWebToken.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
      default: throw OpenIDDirectory.oauthError("Unknown code challenge method.")
      }
      let given = method == "S256" ? challenge.replacingOccurrences(of: "=", with: "") : challenge
      // Compared as digests, in constant time.
      guard AdminToken.matches(given, sha256: AdminToken.sha256(expected)) else {
        throw invalid("The code_challenge and code_verifier do not match.")
      }
    }
  }

  // MARK: Helpers

  private func client(_ appID: String, _ name: String) throws(ServerError) -> OAuthClient {
    guard let client = try storage.signInClient(appID, name: name) else {
      throw .recordNotFound("app-oauth-client", args: [["app-id": .string(appID), "client-name": .string(name)]])
    }
    return client
  }

  private func origins(_ appID: String) throws(ServerError) -> [RedirectOrigin] {
    do {
      return try storage.redirectOrigins(appID)
    } catch {
      throw .serverFault("could not read the app's redirect origins: \(error)")
    }
  }

  func callbackURL() -> URL? { publicBase()?.appendingPathComponent("runtime/oauth/callback") }

  /// The flow's cookie from a `Cookie` header (`__session=instantdb_<id>`).
  static func sessionCookie(_ header: String?) -> String? {
    for pair in (header ?? "").split(separator: ";") {
      let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
      guard parts.count == 2, parts[0] == cookieName, parts[1].hasPrefix(cookiePrefix) else { continue }
      return String(parts[1].dropFirst(cookiePrefix.count))
    }
    return nil
  }

  /// `url` with `fields` added to its query (replacing ones of the same names).
  static func adding(_ fields: [(String, String)], to url: URL) -> URL? {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
    let names = Set(fields.map(\.0))
    let kept = (components.percentEncodedQuery.map(FormEncoding.decode) ?? [:]).filter { !names.contains($0.key) }
    let all = kept.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + fields
    components.percentEncodedQuery = FormEncoding.encode(all)
    return components.url
  }

  static func adding(_ fields: [String: String], to url: URL) -> URL {
    adding(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, to: url) ?? url
  }

  static func nonBlank(_ text: String?) -> String? {
    guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
    return text
  }
}
