public import Foundation
public import InstantCore
public import OrderedCollections

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// InstantDB's admin API for server-side Swift (a Vapor or Hummingbird app, a script, a test):
/// what `@instantdb/admin` does, over the same HTTP routes, against hosted InstantDB, a
/// self-hosted Instant or instant-local.
///
/// ```swift
/// let admin = InstantAdmin(appID: appID, adminToken: token, apiURI: URL(string: "http://127.0.0.1:8888")!)
/// let goals = try await admin.query(["goals": ["todos": [:]]])
/// try await admin.transact([.update("goals", .id(goalID), ["title": "Ship"])])
/// let asAlice = admin.asUser(email: "alice@example.com")   // the app's rules apply
/// ```
///
/// The admin token bypasses the app's permission rules: keep it on the server, never in an app.
/// It never appears in a description, a log line or an error.
public struct InstantAdmin: Sendable, CustomStringConvertible {
  public let appID: String
  public let apiURI: URL
  let adminToken: String?
  let impersonation: Impersonation

  /// Whom requests act as.
  enum Impersonation: Sendable, Equatable {
    case admin
    case email(String)
    case token(String)
    case guest
  }

  /// Hosted InstantDB's API address.
  public static let hostedAPIURI = URL(string: "https://api.instantdb.com")!

  /// - Parameters:
  ///   - appID: the app.
  ///   - adminToken: the app's admin token (`instant-local apps create` prints one). Without it
  ///     only ``asUser(refreshToken:)`` and ``asGuest()`` can query and transact.
  ///   - apiURI: the server's HTTP address; hosted InstantDB by default.
  public init(appID: String, adminToken: String?, apiURI: URL = hostedAPIURI) {
    self.init(appID: appID, adminToken: adminToken, apiURI: apiURI, impersonation: .admin)
  }

  init(appID: String, adminToken: String?, apiURI: URL, impersonation: Impersonation) {
    self.appID = appID
    self.adminToken = adminToken
    self.apiURI = apiURI
    self.impersonation = impersonation
  }

  public var description: String { "InstantAdmin(app: \(appID), api: \(apiURI.absoluteString))" }

  // MARK: Acting as a user

  /// Queries and transactions as the user with this email, under the app's rules.
  public func asUser(email: String) -> InstantAdmin { acting(as: .email(email)) }

  /// Queries and transactions as the user this refresh token belongs to, under the app's rules
  /// (no admin token is needed for this).
  public func asUser(refreshToken: String) -> InstantAdmin { acting(as: .token(refreshToken)) }

  /// Queries and transactions as a guest (no user), under the app's rules.
  public func asGuest() -> InstantAdmin { acting(as: .guest) }

  private func acting(as impersonation: Impersonation) -> InstantAdmin {
    InstantAdmin(appID: appID, adminToken: adminToken, apiURI: apiURI, impersonation: impersonation)
  }

  // MARK: Data

  /// Runs an InstaQL query: `{namespace: [entity, …]}`, links nested as arrays.
  ///
  /// - Parameters:
  ///   - query: the InstaQL query.
  ///   - ruleParams: what rules read as `ruleParams` (sent as the query's `$$ruleParams`).
  ///   - inference: has-one links as one entity (or `null` when nothing is linked) rather than an
  ///     array, as `@instantdb/admin` asks when it has a schema.
  public func query(_ query: JSON, ruleParams: JSONObject? = nil, inference: Bool = false) async throws(InstantAdminError) -> JSON {
    try await send("POST", "admin/query", body: ["query": Self.withRuleParams(query, ruleParams), "inference?": .bool(inference)])
  }

  /// The query with `ruleParams` as its `$$ruleParams`.
  static func withRuleParams(_ query: JSON, _ ruleParams: JSONObject?) -> JSON {
    guard let ruleParams, case var .object(o) = query else { return query }
    o["$$ruleParams"] = .object(ruleParams)
    return .object(o)
  }

  /// Applies operations in one transaction (attributes that do not exist yet are created) and
  /// returns its tx-id.
  @discardableResult
  public func transact(_ ops: [InstaMLOp]) async throws(InstantAdminError) -> Int {
    let answer = try await send("POST", "admin/transact", body: ["steps": .array(ops.map(\.json))])
    guard let txID = answer["tx-id"]?.intValue else {
      throw InstantAdminError(.badResponse, "the transact answer has no tx-id")
    }
    return txID
  }

  // MARK: HTTP

  /// Sends one request with a JSON body and returns its JSON answer; a non-200 answer throws the
  /// server's error.
  func send(_ method: String, _ path: String, query: [URLQueryItem] = [], body: JSON? = nil) async throws(InstantAdminError)
    -> JSON
  {
    try await send(
      method, path, query: query, headers: body == nil ? [:] : ["content-type": "application/json"],
      rawBody: body.map { Data($0.serialized().utf8) })
  }

  /// Sends one request with the app's credentials and impersonation headers, and `headers`, with
  /// `rawBody` as is (a file's bytes).
  func send(
    _ method: String, _ path: String, query: [URLQueryItem] = [], headers: [String: String], rawBody: Data?
  ) async throws(InstantAdminError) -> JSON {
    let request = try self.request(method, path, query: query, headers: headers, rawBody: rawBody)
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await URLSession.shared.data(for: request)
    } catch {
      throw InstantAdminError(.unreachable, "could not reach \(apiURI.host ?? apiURI.absoluteString): \(error.localizedDescription)")
    }
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard let answer = try? JSON.parse(bytes: data) else {
      throw InstantAdminError(.badResponse, "the answer to \(method) /\(path) (status \(status)) is not JSON")
    }
    guard status == 200 else { throw InstantAdminError(serverAnswer: answer, status: status) }
    return answer
  }

  /// A request with the app's credentials and impersonation headers, and `headers`, with
  /// `rawBody` as is.
  func request(
    _ method: String, _ path: String, query: [URLQueryItem] = [], headers: [String: String], rawBody: Data?
  ) throws(InstantAdminError) -> URLRequest {
    var components = URLComponents(url: apiURI.appendingPathComponent(path), resolvingAgainstBaseURL: false)
    components?.queryItems = [URLQueryItem(name: "app_id", value: appID)] + query
    // `+` reads as a space in a query; a file's path may hold one.
    let encoded = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    components?.percentEncodedQuery = encoded
    guard let url = components?.url else { throw InstantAdminError(.badRequest, "cannot make a URL from \(apiURI) and \(path)") }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.setValue(appID, forHTTPHeaderField: "app-id")
    if let adminToken { request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "authorization") }
    switch impersonation {
    case .admin: break
    case let .email(email): request.setValue(email, forHTTPHeaderField: "as-email")
    case let .token(token): request.setValue(token, forHTTPHeaderField: "as-token")
    case .guest: request.setValue("true", forHTTPHeaderField: "as-guest")
    }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = rawBody
    return request
  }
}
