import Foundation
import InstantCore
@testable import InstantLocal
import InstantLocalTesting
import Testing
import TestSupport
internal import OrderedCollections

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every HTTP route the server registers, taken from its router (a route added later is fuzzed
/// too), sent seeded random requests: random methods' bodies built from every parameter name the
/// routes read, wrong types, broken JSON and bodies past the size limit, with no, wrong, another
/// app's or the right admin token. The server must answer each with a client error or success,
/// never a fault (5xx) or a crash, keep serving a live session, and leave an app whose token is
/// never sent exactly as it was (docs/reliability.md, "Fuzzing").
@Suite("Every HTTP route under random requests")
struct RouteFuzzTests {
  /// Requests per route and seed: a light load beside the rest of the suite; `INSTANT_FUZZ_ROUNDS`
  /// runs more (docs/reliability.md has a run of 400).
  static let rounds = ProcessInfo.processInfo.environment["INSTANT_FUZZ_ROUNDS"].flatMap(Int.init) ?? 10

  static let keys = [
    "app-id", "app_id", "email", "code", "refresh-token", "refresh_token", "extra-fields", "extra_fields", "query", "steps",
    "inference?", "throw-on-missing-attrs?", "rules-override", "dangerously-commit-tx", "id", "filename", "filenames",
    "path", "client_name", "id_token", "nonce", "redirect_uri", "state", "code_challenge", "code_challenge_method",
    "code_verifier", "service", "params", "provider_name", "provider_id", "client_id", "client_secret",
    "discovery_endpoint", "meta", "audiences", "redirect_to", "use_shared_credentials", "email-type", "subject", "body",
    "sender-email", "sender-name", "perms", "q", "ip-override", "origin-override", "as-email", "expires-in", "name",
  ]

  struct Target: Sendable {
    var appID: String
    var token: String
    var otherToken: String
    var canaryID: String
    var metricsToken: String
  }

  /// A random JSON value, leaning on what the routes look for.
  static func value(_ g: inout SeededGenerator, _ target: Target, depth: Int = 0) -> JSON {
    switch Int.random(in: 0..<(depth > 2 ? 7 : 10), using: &g) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &g))
    case 2: return .number([0, -1, 1e308, 0.5, 42, -9e15].randomElement(using: &g)!)
    case 3:
      return .string(
        [
          "", "a@example.com", "not an email", target.appID, target.canaryID, newID(), "123456", "magic-code", "generic",
          "custom-scheme", "google", "https://example.invalid/.well-known/openid-configuration", "http://localhost:1/x",
          "../../etc/passwd", "photos/a.png", "{code}", "S256", "\u{0}", String(repeating: "x", count: 5000), "🙂",
          "$users", "goals", "true", "vercel",
        ].randomElement(using: &g)!)
    case 4: return .array((0..<Int.random(in: 0...3, using: &g)).map { _ in value(&g, target, depth: depth + 1) })
    case 5:
      // An InstaQL query or tx steps of the shapes the admin routes take.
      return [
        ["goals": [:]], ["$users": ["$": ["where": ["email": "a@example.com"]]]], ["goals": ["$": ["limit": -1]]],
        [["update", "goals", .string(newID()), ["title": "x"]]], [["add-triple", "x", "y", "z"]], [["delete", "$users", .string(newID())]],
      ].randomElement(using: &g)!
    case 6: return .object(object(&g, target, depth: depth + 1))
    default: return .string(keys.randomElement(using: &g)!)
    }
  }

  static func object(_ g: inout SeededGenerator, _ target: Target, depth: Int = 0) -> JSONObject {
    var o: JSONObject = [:]
    for _ in 0..<Int.random(in: 0...5, using: &g) {
      o[keys.randomElement(using: &g)!] = value(&g, target, depth: depth + 1)
    }
    return o
  }

  /// A well-formed body for the route, by the end of its path, which the fuzz then mutates: so
  /// most requests reach past the checks of shape into what each route does.
  static func wellFormed(_ template: String, _ target: Target) -> JSONObject {
    let app: JSON = .string(target.appID)
    let goal: JSON = .string(newID())
    let table: [(String, JSONObject)] = [
      ("sign_in_guest", ["app-id": app]), ("send_magic_code", ["app-id": app, "email": "fuzz@example.com"]),
      ("verify_magic_code", ["app-id": app, "email": "fuzz@example.com", "code": "123456"]),
      ("verify_refresh_token", ["app-id": app, "refresh-token": .string(newID())]),
      ("id_token", ["app_id": app, "client_name": "google", "id_token": "a.b.c"]),
      ("oauth/token", ["app_id": app, "code": .string(newID()), "code_verifier": "v"]),
      ("signout", ["app_id": app, "refresh_token": .string(newID())]),
      ("query_perms_check", ["query": ["goals": [:]]]), ("transact_perms_check", ["steps": [["update", "goals", goal, ["title": "t"]]]]),
      ("subscribe-query", ["query": ["goals": [:]]]), ("query", ["query": ["goals": ["$": ["limit": 5]]]]),
      ("transact", ["steps": [["update", "goals", goal, ["title": "fuzzed"]], ["link", "goals", goal, ["owner": .string(newID())]]]]),
      ("refresh_tokens", ["email": "fuzz@example.com"]), ("sign_out", ["email": "fuzz@example.com"]),
      ("magic_code", ["email": "fuzz@example.com"]), ("rules", ["code": ["goals": ["allow": ["view": "true"]]]]),
      ("steps/apply", ["steps": []]), ("authorized_redirect_origins", ["service": "generic", "params": ["fuzz.example.com"]]),
      ("oauth_service_providers", ["provider_name": "google"]),
      ("oauth_clients", ["provider_id": .string(AuthSettingID.provider(target.appID, "google")), "client_name": "g", "client_id": "c"]),
      ("email_templates", ["email-type": "magic-code", "subject": "{code}", "body": "<p>{code}</p>"]),
      ("signed-upload-url", ["app_id": app, "filename": "fuzz/a.txt"]), ("files/delete", ["filenames": ["fuzz/a.txt"]]),
      ("signed-download-url", ["app_id": app, "filename": "fuzz/a.txt"]), ("storage/files", ["filename": "fuzz/a.txt"]),
      ("users", ["email": "fuzz@example.com"]), ("presence", ["room-type": "chat", "room-id": "lobby"]),
    ]
    return table.first { template.hasSuffix($0.0) }?.1 ?? [:]
  }

  /// `body` with one change: a key dropped, a value replaced, a key added; or none.
  static func mutated(_ body: JSONObject, _ g: inout SeededGenerator, _ target: Target) -> JSONObject {
    var body = body
    switch Int.random(in: 0..<4, using: &g) {
    case 0 where !body.isEmpty: body.removeValue(forKey: body.keys.randomElement(using: &g)!)
    case 1 where !body.isEmpty: body[body.keys.randomElement(using: &g)!] = value(&g, target)
    case 2: body[keys.randomElement(using: &g)!] = value(&g, target)
    default: break
    }
    return body
  }

  /// A path with each `:parameter` filled: the app, another app, a new id, or junk.
  static func path(_ template: String, _ g: inout SeededGenerator, _ target: Target) -> String {
    template.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
      guard part.hasPrefix(":") || part.hasPrefix("{") || part == "*" || part == "**" else { return String(part) }
      let choices = [target.appID, target.appID, target.canaryID, newID(), "x", "%2e%2e", "%00", String(repeating: "a", count: 300)]
      return choices.randomElement(using: &g)!
    }.joined(separator: "/")
  }

  struct Outcome: Sendable {
    var statuses: [Int: Int] = [:]
    var faults: [String] = []
    /// Routes no request got a success from (reported, not failed: some need state no random
    /// request makes, such as a started OAuth flow).
    var neverSucceeded: [String] = []
  }

  static func send(
    _ base: URL, method: String, path: String, _ g: inout SeededGenerator, _ target: Target
  ) async -> (status: Int, detail: String) {
    var query = URLComponents()
    query.queryItems = (0..<Int.random(in: 0...3, using: &g)).map { _ in
      URLQueryItem(name: keys.randomElement(using: &g)!, value: value(&g, target).stringValue ?? value(&g, target).serialized())
    }
    guard var url = URL(string: base.absoluteString + path) else { return (0, "no URL for \(path)") }
    if let items = query.percentEncodedQuery, !items.isEmpty, let withQuery = URL(string: url.absoluteString + "?" + items) {
      url = withQuery
    }
    var request = URLRequest(url: url, timeoutInterval: 30)
    request.httpMethod = method
    // Half the requests are the route's own shape with one change, as the app's admin.
    if Bool.random(using: &g) {
      request.setValue("Bearer \(target.token)", forHTTPHeaderField: "authorization")
      request.setValue(target.appID, forHTTPHeaderField: "app-id")
      let body = mutated(wellFormed(path, target), &g, target)
      if method == "GET" || method == "DELETE" {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.queryItems = body.map { URLQueryItem(name: $0.key, value: $0.value.stringValue ?? $0.value.serialized()) }
        if let withQuery = components?.url { request.url = withQuery }
      }
      if method != "GET" {
        request.setValue("application/json", forHTTPHeaderField: "content-type")
        request.httpBody = Data(JSON.object(body).serialized().utf8)
      }
      return await response(request)
    }
    let tokens = [nil, target.token, target.token, target.otherToken, target.metricsToken, "junk", newID()]
    if let token = tokens.randomElement(using: &g)! {
      request.setValue(Bool.random(using: &g) ? "Bearer \(token)" : token, forHTTPHeaderField: "authorization")
    }
    for header in ["app-id", "as-email", "as-token", "as-guest", "path", "content-type"] where Int.random(in: 0..<4, using: &g) == 0 {
      let value =
        header == "app-id"
        ? [target.appID, target.canaryID, "junk"].randomElement(using: &g)!
        : header == "content-type"
          ? ["application/json", "application/x-www-form-urlencoded", "image/png", "text/plain"].randomElement(using: &g)!
          : (value(&g, target).stringValue ?? "x")
      request.setValue(value.replacingOccurrences(of: "\u{0}", with: ""), forHTTPHeaderField: header)
    }
    if method != "GET" {
      switch Int.random(in: 0..<10, using: &g) {
      case 0: request.httpBody = Data("{\"unterminated\": [1, 2".utf8)
      case 1: request.httpBody = Data([0xFF, 0xFE, 0x00, 0x7B])
      case 2: request.httpBody = Data(repeating: 0x20, count: (1 << 20) + 17)
      case 3: request.httpBody = Data(value(&g, target).serialized().utf8)
      case 4: request.httpBody = Data(String(repeating: "[", count: 5000).utf8)
      case 5:
        request.httpBody = Data(
          object(&g, target).map { "\($0.key)=\(($0.value.stringValue ?? $0.value.serialized()).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&").utf8)
      default: request.httpBody = Data(JSON.object(object(&g, target)).serialized().utf8)
      }
    }
    return await response(request)
  }

  /// For subscribe-query: a stream that opened stays open, and URLSession on Linux waits its
  /// session's timeout (60 s by default) whatever the request's.
  static let streamSession: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 2
    return URLSession(configuration: configuration)
  }()

  static func response(_ request: URLRequest) async -> (status: Int, detail: String) {
    let session = request.url?.path.hasSuffix("subscribe-query") == true ? streamSession : URLSession.shared
    do {
      let (data, response) = try await session.data(for: request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      return (status, String(decoding: data.prefix(300), as: UTF8.self))
    } catch {
      return (-1, "\(error)")
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func everyRoute(seed: UInt64) async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("route-fuzz-\(newID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var configuration = InstantLocalConfiguration.testing(dataFile: dir.appendingPathComponent("data.sqlite").path)
    configuration.metricsToken = "metrics-\(newID())"
    configuration.maxMessageBytes = 1 << 20
    configuration.pingInterval = .seconds(60)
    try await withInstantLocal(configuration: configuration) { server in
      let app = try server.apps.create(title: "Fuzzed")
      let other = try server.apps.create(title: "Other")
      let canary = try server.apps.create(title: "Canary")
      let base = try #require(await server.baseURL)
      // The canary's data, made with its token, which the fuzz never sends.
      let admin = HTTPTestClient(port: try await server.boundPort)
      let seeded = try await Self.admin(admin, canary, "POST", "/admin/transact", [
        "steps": [["update", "goals", .string(newID()), ["title": "kept"]], ["update", "goals", .string(newID()), ["title": "also kept"]]],
      ])
      #expect(seeded.0 == 200, "\(seeded.1)")
      let before = try await Self.admin(admin, canary, "POST", "/admin/query", ["query": ["goals": [:], "$users": [:]]]).1
      let (session, initOK) = try await server.connect(appID: app.id)
      #expect(initOK["op"] == "init-ok")

      let target = Target(
        appID: app.id, token: app.adminToken, otherToken: other.adminToken, canaryID: canary.id,
        metricsToken: configuration.metricsToken ?? "")
      let routes = server.httpRoutes
      #expect(routes.count >= 50, "the router lists its routes: \(routes.count)")
      var g = SeededGenerator(seed: seed)
      var outcome = Outcome()
      for (method, template) in routes where method != "OPTIONS" {
        var succeeded = false
        defer { if !succeeded { outcome.neverSucceeded.append("\(method) \(template)") } }
        for _ in 0..<Self.rounds {
          let path = Self.path(template, &g, target)
          let (status, detail) = await Self.send(base, method: method, path: path, &g, target)
          outcome.statuses[status, default: 0] += 1
          if (200..<400).contains(status) { succeeded = true }
          // A subscribe-query stream that opened stays open: the client's timeout ends it.
          let stream = template.hasSuffix("subscribe-query") && status == -1
          if status >= 500 || (status < 100 && !stream) {
            outcome.faults.append("\(method) \(path) → \(status): \(detail)")
          }
        }
      }
      let total = outcome.statuses.values.reduce(0, +)
      print("route fuzz seed \(seed): \(total) requests over \(routes.count) routes; statuses \(outcome.statuses.sorted { $0.key < $1.key })")
      print("route fuzz seed \(seed): no success on \(outcome.neverSucceeded.count) routes: \(outcome.neverSucceeded)")
      #expect(outcome.faults.isEmpty, "\(outcome.faults.count) faults, first: \(outcome.faults.prefix(5))")

      // Still serving: health, the live session, and the canary as it was.
      #expect(try await admin.http("GET", "/health").0 == 200)
      let probe = try await session.request(["op": "add-query", "q": ["goals": [:]]])
      #expect(probe["op"] == "add-query-ok")
      let after = try await Self.admin(admin, canary, "POST", "/admin/query", ["query": ["goals": [:], "$users": [:]]]).1
      #expect(after == before, "the canary app, whose token was never sent, is unchanged")
      #expect(after["goals"]?.arrayValue?.count == 2)
      await session.close()
    }
  }

  static func admin(
    _ client: HTTPTestClient, _ app: AppCatalog.CreatedApp, _ method: String, _ path: String, _ body: JSON
  ) async throws -> (Int, JSON) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(client.port)\(path)")!)
    request.httpMethod = method
    request.setValue("Bearer \(app.adminToken)", forHTTPHeaderField: "authorization")
    request.setValue(app.id, forHTTPHeaderField: "app-id")
    request.setValue("application/json", forHTTPHeaderField: "content-type")
    request.httpBody = Data(body.serialized().utf8)
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSON.parse(bytes: data))
  }
}
