import Clocks
import Foundation
import InstantCore
import OrderedCollections

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the server knows of OpenID providers: each discovery document (the issuer, where the
/// signing keys are, the algorithms) and each provider's keys, fetched when first needed and kept
/// for an hour. A token signed with a key the server has not seen makes it fetch the keys again
/// (providers rotate them), at most once per ``refetchInterval`` per provider, so tokens with
/// made-up key ids cannot make the server hammer a provider.
actor OpenIDDirectory {
  /// A provider, as its discovery document describes it.
  struct Provider: Sendable, Equatable {
    var issuer: String
    var jwksURI: URL
    /// `id_token_signing_alg_values_supported` (RS256 and HS256 when the document has none, as the
    /// reference assumes).
    var algorithms: Set<String>
    /// Where the OAuth web flow sends the browser, and exchanges the code (`nil` when the document
    /// names none: that provider has ID-token sign-in only).
    var authorizationEndpoint: URL?
    var tokenEndpoint: URL?
  }

  /// Fetches a document: `GET url`, its body when the status is 200.
  typealias Fetch = @Sendable (URL) async throws -> Data
  /// Posts a form: `POST url` with `fields` form-encoded; the status and body.
  typealias Post = @Sendable (URL, [(String, String)]) async throws -> (Int, Data)

  static let maxAge: Duration = .seconds(3_600)
  static let refetchInterval: Duration = .seconds(10)

  private let fetch: Fetch
  /// The server's clock: how old a fetched document is, and (for ``IDTokenCheck``) wall time.
  let clock: ServerClock
  private var providers: [URL: (provider: Provider, fetched: AnyClock<Duration>.Instant)] = [:]
  private var keySets: [URL: (keys: JSONWebKeys, fetched: AnyClock<Duration>.Instant)] = [:]

  private let post: Post

  init(
    clock: ServerClock, fetch: @escaping Fetch = OpenIDDirectory.get,
    post: @escaping Post = OpenIDDirectory.postForm
  ) {
    self.clock = clock
    self.fetch = fetch
    self.post = post
  }

  /// Exchanges an authorization code at the provider's token endpoint (`fields` are the form's);
  /// the token response's JSON object.
  func exchange(at endpoint: URL, _ fields: [(String, String)]) async throws(ServerError) -> JSON {
    guard Self.mayFetch(endpoint) else {
      throw Self.oauthError("OAuth provider addresses must use https (plain http only on loopback): \(endpoint.absoluteString)")
    }
    let status: Int
    let body: JSON
    do {
      let (code, data) = try await post(endpoint, fields)
      status = code
      body = (try? JSON.parse(bytes: data)) ?? .null
    } catch {
      throw Self.oauthError("Error exchanging code for token.")
    }
    guard status == 200, case .object = body else {
      throw Self.oauthError(body["error_description"]?.stringValue ?? "Error exchanging code for token.")
    }
    return body
  }

  /// The provider whose discovery document is at `endpoint`.
  func provider(at endpoint: URL) async throws(ServerError) -> Provider {
    if let known = providers[endpoint], known.fetched.duration(to: clock.monotonic.now) < Self.maxAge { return known.provider }
    let json = try await document(endpoint)
    guard let issuer = json["issuer"]?.stringValue, let jwks = json["jwks_uri"]?.stringValue.flatMap(URL.init(string:)) else {
      throw Self.oauthError("The OAuth provider's configuration has no issuer or jwks_uri.")
    }
    let algorithms = json["id_token_signing_alg_values_supported"]?.arrayValue?.compactMap(\.stringValue) ?? ["RS256", "HS256"]
    let provider = Provider(
      issuer: issuer, jwksURI: jwks, algorithms: Set(algorithms),
      authorizationEndpoint: json["authorization_endpoint"]?.stringValue.flatMap(URL.init(string:)),
      tokenEndpoint: json["token_endpoint"]?.stringValue.flatMap(URL.init(string:)))
    providers[endpoint] = (provider, clock.monotonic.now)
    return provider
  }

  /// The key `kid` of the provider whose keys are at `jwksURI`, fetching them again when it is not
  /// among those known (and they were not fetched in the last ``refetchInterval``).
  func key(_ kid: String, at jwksURI: URL) async throws(ServerError) -> JSONWebKeys.Key {
    let known = keySets[jwksURI]
    if let known, known.fetched.duration(to: clock.monotonic.now) < Self.maxAge, let key = known.keys[kid] { return key }
    if let known, known.keys[kid] == nil, known.fetched.duration(to: clock.monotonic.now) < Self.refetchInterval {
      throw Self.oauthError("Error validating JWT. Could not find signing key.")
    }
    guard let keys = JSONWebKeys(json: try await document(jwksURI)) else {
      throw Self.oauthError("The OAuth provider's signing keys are not a JWKS.")
    }
    keySets[jwksURI] = (keys, clock.monotonic.now)
    guard let key = keys[kid] else { throw Self.oauthError("Error validating JWT. Could not find signing key.") }
    return key
  }

  private func document(_ url: URL) async throws(ServerError) -> JSON {
    guard Self.mayFetch(url) else {
      throw Self.oauthError("OAuth provider addresses must use https (plain http only on loopback): \(url.absoluteString)")
    }
    do {
      return try JSON.parse(bytes: try await fetch(url))
    } catch {
      throw Self.oauthError("Unable to fetch OAuth configuration.")
    }
  }

  /// https anywhere; http only to this machine (a test's provider, or one on the same host).
  static func mayFetch(_ url: URL) -> Bool {
    switch url.scheme?.lowercased() {
    case "https": true
    case "http": ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
    default: false
    }
  }

  static func oauthError(_ message: String) -> ServerError { ServerError(.oauthError, message: message, status: 400) }

  /// `POST url` with a form body, Foundation's HTTP client, ten seconds at most.
  @Sendable static func postForm(_ url: URL, _ fields: [(String, String)]) async throws -> (Int, Data) {
    var request = URLRequest(url: url, timeoutInterval: 10)
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.httpBody = Data(FormEncoding.encode(fields).utf8)
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
  }

  /// `GET url` with Foundation's HTTP client, ten seconds at most.
  @Sendable static func get(_ url: URL) async throws -> Data {
    var request = URLRequest(url: url, timeoutInterval: 10)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    return data
  }
}
