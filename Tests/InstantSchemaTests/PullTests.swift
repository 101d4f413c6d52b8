import Foundation
import InstantSchema
import Testing

/// `pull` over real HTTP against a loopback server.
@Suite struct PullTests {
  @Test func fetchesTheSchemaWithTheTokenAndConvertsIt() async throws {
    let body = try String(contentsOf: TestSupport.schemasDirectory.appendingPathComponent("pull-response.json"), encoding: .utf8)
    let server = try LoopbackHTTPServer(status: 200, body: body)
    let data = try await SchemaPull.fetch(appID: "app-1", apiURI: URL(string: "http://127.0.0.1:\(server.port)")!, token: "secret")
    let request = try #require(server.request)
    #expect(request.hasPrefix("GET /dash/apps/app-1/schema/pull HTTP/1.1\r\n"))
    #expect(request.lowercased().contains("authorization: bearer secret\r\n"))
    let schema = try SchemaPull.schema(fromPullResponse: data)
    #expect(schema.entities.map(\.name) == ["$users", "todos"])
  }

  @Test func explainsAnAuthorizationFailure() async throws {
    let server = try LoopbackHTTPServer(status: 401, body: #"{"message": "unauthorized"}"#)
    await #expect {
      _ = try await SchemaPull.fetch(appID: "app-1", apiURI: URL(string: "http://127.0.0.1:\(server.port)")!, token: nil)
    } throws: { error in
      let message = (error as? Diagnostic)?.message ?? ""
      return message.contains("HTTP 401") && message.contains("--token")
    }
  }

  @Test func rejectsABodyThatIsNotAPullResponse() {
    #expect(throws: Diagnostic.self) { try SchemaPull.schema(fromPullResponse: Data(#"{"ok": true}"#.utf8)) }
  }
}
