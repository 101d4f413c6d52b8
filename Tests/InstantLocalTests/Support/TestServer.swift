import Foundation
import InstantCore
import InstantLocal
import Logging

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An embedded server on port 0 for one test.
struct TestServer {
  let server: InstantLocalServer
  let port: Int

  static func start(
    storage: InstantLocalConfiguration.Storage = .memory, maxMessageBytes: Int = 1 << 20,
    pingInterval: Duration = .seconds(5)
  ) async throws -> TestServer {
    var logger = Logger(label: "instant-local-test")
    logger.logLevel = .critical
    let server = try InstantLocalServer(
      configuration: .init(port: 0, storage: storage, maxMessageBytes: maxMessageBytes, pingInterval: pingInterval),
      logger: logger)
    let port = try await server.start()
    return TestServer(server: server, port: port)
  }

  func stop() async { await server.stop() }

  func connect(
    appID: String = TestSession.appID, versions: JSON? = TestSession.modernVersions, refreshToken: String? = nil
  ) async throws -> (TestSession, JSON) {
    try await TestSession.connected(port: port, appID: appID, versions: versions, refreshToken: refreshToken)
  }

  /// A JSON request over HTTP; returns the status and the parsed body.
  func http(_ method: String, _ path: String, body: JSON? = nil) async throws -> (Int, JSON) {
    try await Client(port: port).http(method, path, body: body)
  }

  /// HTTP requests to a server on loopback.
  struct Client {
    let port: Int

    func http(_ method: String, _ path: String, body: JSON? = nil) async throws -> (Int, JSON) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.httpMethod = method
    if let body {
      request.httpBody = Data(body.serialized().utf8)
      request.setValue("application/json", forHTTPHeaderField: "content-type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    return (status, try JSON.parse(bytes: data))
    }
  }
}

/// Fresh lower-case ids.
func newID() -> String { UUID().uuidString.lowercased() }

/// `["add-attr", …]` for a blob attr `etype.label`.
func blobAttr(_ id: String, _ etype: String, _ label: String, unique: Bool = false, indexed: Bool = false) -> JSON {
  [
    "add-attr",
    [
      "id": .string(id), "forward-identity": [.string(newID()), .string(etype), .string(label)], "value-type": "blob",
      "cardinality": "one", "unique?": .bool(unique), "index?": .bool(indexed),
    ],
  ]
}

/// `["add-attr", …]` for a many ref `etype.label` ↔ `target.reverse`.
func refAttr(_ id: String, _ etype: String, _ label: String, _ target: String, _ reverse: String) -> JSON {
  [
    "add-attr",
    [
      "id": .string(id), "forward-identity": [.string(newID()), .string(etype), .string(label)],
      "reverse-identity": [.string(newID()), .string(target), .string(reverse)], "value-type": "ref",
      "cardinality": "many", "unique?": false, "index?": false,
    ],
  ]
}

/// Every triple in an instaql result (recursing into child nodes, as the client's extractTriples).
func triples(_ result: JSON?) -> [JSON] {
  var out: [JSON] = []
  for node in result?.arrayValue ?? [] {
    for row in node["data"]?["datalog-result"]?["join-rows"]?.arrayValue ?? [] {
      out += row.arrayValue ?? []
    }
    out += triples(node["child-nodes"])
  }
  return out
}
