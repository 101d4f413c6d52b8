import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A running instant-local with one app made by `apps create`, and an admin client for it.
struct AdminWorld {
  let server: InstantLocalServer
  let app: AppCatalog.CreatedApp
  let baseURL: URL
  /// What the world's clients log at error level, checked when ``run(configuration:expectingErrors:_:)``
  /// ends, after it has shut them down.
  let errors: ExpectedErrors
  let made = Locked<[InstantClient]>([])

  var admin: InstantAdmin { InstantAdmin(appID: app.id, adminToken: app.adminToken, apiURI: baseURL) }

  /// Runs `body` in a new world; its clients must log the errors named in `expectingErrors`
  /// (parts of their text) and no others (``ExpectedErrors``).
  static func run<T>(
    configuration: InstantLocalConfiguration = .testing(), expectingErrors: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation, _ body: (AdminWorld) async throws -> T
  ) async throws -> T {
    let errors = ExpectedErrors(expectingErrors)
    return try await withInstantLocal(configuration: configuration) { server in
      let app = try server.apps.create(title: "Admin tests")
      let baseURL = try #require(await server.baseURL)
      let world = AdminWorld(server: server, app: app, baseURL: baseURL, errors: errors)
      let result = try await body(world)
      for client in world.made.withLock({ $0 }) { await client.shutdown() }
      errors.check(sourceLocation)
      return result
    }
  }

  /// A client of the app (a guest, in memory), as an app would connect.
  func client() async throws -> InstantClient {
    let client = InstantClient(
      appId: app.id, apiURI: baseURL, websocketURI: try #require(await server.webSocketURL), storage: .memory,
      logger: errors.logger)
    made.withLock { $0.append(client) }
    return client
  }

  /// A raw HTTP request: the status and the body's text, for what the admin client does not send.
  func http(
    _ method: String, _ path: String, headers: [String: String] = [:], body: JSON? = nil
  ) async throws -> (status: Int, body: JSON, text: String) {
    var request = URLRequest(url: baseURL.appendingPathComponent(path))
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body {
      request.httpBody = Data(body.serialized().utf8)
      request.setValue("application/json", forHTTPHeaderField: "content-type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let text = String(decoding: data, as: UTF8.self)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSON.parse(bytes: data)) ?? .null, text)
  }

  /// Makes the has-one link `etype.label` → `target` (reverse `reverseLabel`), as a schema with
  /// `has: "one"` would (an admin transaction's `add-attr`; the admin client has no op for it).
  func addHasOneLink(_ etype: String, _ label: String, to target: String, reverse reverseLabel: String) async throws {
    let attr: JSON = [
      "id": .string(newID()), "forward-identity": [.string(newID()), .string(etype), .string(label)],
      "reverse-identity": [.string(newID()), .string(target), .string(reverseLabel)], "value-type": "ref",
      "cardinality": "one", "unique?": false, "index?": false,
    ]
    let made = try await http(
      "POST", "admin/transact", headers: ["app-id": app.id, "authorization": "Bearer \(app.adminToken)"],
      body: ["steps": [["add-attr", attr]]])
    #expect(made.status == 200, "\(made.text)")
  }
}

/// A fresh entity id.
func newID() -> String { UUID().uuidString.lowercased() }
