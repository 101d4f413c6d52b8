import Foundation
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import Logging
import TestSupport
import Testing
internal import OrderedCollections

/// An in-process instant-local on a free port, and clients of one app pointed at it.
struct KeysServer {
  static let appID = "0b6a2b1e-3a55-4a63-9f0e-5a1c2d3e4f50"
  let port: Int
  /// What the clients (and the keys over them) log at error level, checked when the test ends.
  let errors: ExpectedErrors

  func client() -> InstantClient {
    InstantClient(
      appId: Self.appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
      websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: .memory,
      schema: testSchema, logger: errors.logger)
  }

  /// Two clients of one app on a fresh server, with `rules` as the app's permission rules, shut
  /// down afterwards. When `body` returns, they must have logged the errors named in
  /// `expectingErrors` and no others but those in `allowingErrors` (``ExpectedErrors``).
  static func withTwoClients<T>(
    rules: JSON? = nil, expectingErrors: [String] = [], allowingErrors: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation, _ body: (InstantClient, InstantClient) async throws -> T
  ) async throws -> T {
    let errors = ExpectedErrors(expectingErrors, allowing: allowingErrors)
    var logger = Logger(label: "keys-tests")
    logger.logLevel = .critical
    return try await withInstantLocal(configuration: .testing(dataFile: nil), logger: logger) { server in
      try await server.setRules(rules)
      let server = KeysServer(port: try #require(await server.port), errors: errors)
      let a = server.client()
      let b = server.client()
      do {
        let result = try await body(a, b)
        await a.shutdown()
        await b.shutdown()
        errors.check(sourceLocation)
        return result
      } catch {
        await a.shutdown()
        await b.shutdown()
        throw error
      }
    }
  }
}

/// `namespace`'s rows as the server has them now, read by `client` once it is connected.
func serverRows(_ client: InstantClient, _ namespace: String, _ query: JSON = [:]) async throws -> [JSON] {
  try await eventually("\(client.appId) connected") { await client.status == .authenticated }
  let result = try await client.queryOnce(.object([namespace: query]))
  return result.data[namespace]?.arrayValue ?? []
}

/// Waits until every write of `client` is acknowledged by the server.
func allSynced(_ client: InstantClient) async throws {
  try await eventually("pending writes synced") {
    await client.pendingWrites.allSatisfy { $0.state == .synced }
  }
}
