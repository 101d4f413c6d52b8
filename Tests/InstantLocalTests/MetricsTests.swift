import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing

/// `GET /metrics` and `GET /health/system` (docs/instant-local.md, "Health and metrics"): a real
/// session, writes, a refused write, sign-ins, then the page read back over HTTP.
@Suite("Health and metrics")
struct MetricsTests {
  static let token = "metrics-token-\(UUID().uuidString)"

  /// The value of the sample named `name` (with its labels, as printed), if the page has it.
  static func value(_ page: String, _ name: String) -> Double? {
    page.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
  }

  func metrics(_ server: InstantLocalServer, token: String?) async throws -> FileHTTP.Answer {
    let base = try #require(await server.baseURL)
    return try await FileHTTP.send(
      "GET", base.appendingPathComponent("metrics"), headers: token.map { ["authorization": "Bearer \($0)"] } ?? [:])
  }

  @Test("Sessions, queries, transactions, refreshes and sign-ins are counted; the page needs the token")
  func counted() async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.metricsToken = Self.token
    try await withInstantLocal(configuration: configuration) { server in
      #expect(try await metrics(server, token: nil).status == 401)
      #expect(try await metrics(server, token: "wrong-\(Self.token)").status == 401)

      let (session, _) = try await server.connect()
      let (goalsID, goalsTitle, goal) = (newID(), newID(), newID())
      let q: JSON = ["goals": [:]]
      _ = try await session.request(["op": "add-query", "q": q])
      let schema = [blobAttr(goalsID, "goals", "id", unique: true, indexed: true), blobAttr(goalsTitle, "goals", "title")]
      let created = try await session.request([
        "op": "transact", "tx-steps": .array(schema + createEntity(goal, idAttr: goalsID, [goalsTitle: .string("Run")])),
      ])
      #expect(created["op"] == "transact-ok")
      _ = try await session.next(op: "refresh-ok")
      let bad = try await session.request(["op": "transact", "tx-steps": [["add-triple", "not-a-uuid", "nope", 1]]])
      #expect(bad["op"] == "error")
      #expect(try await server.signInGuest().0 == 200)
      #expect(try await server.sendMagicCode(email: "ann@example.com").0 == 200)
      let code = try #require(await server.lastMagicCode(appID: TestSession.appID, email: "ann@example.com"))
      #expect(try await server.verifyMagicCode(email: "ann@example.com", code: code).0 == 200)

      let answer = try await metrics(server, token: Self.token)
      #expect(answer.status == 200)
      #expect(answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
      let page = String(decoding: answer.data, as: UTF8.self)
      #expect(Self.value(page, "instant_sessions") == 1, "\(page)")
      #expect(Self.value(page, "instant_sessions_opened_total") == 1)
      #expect(Self.value(page, "instant_queries") == 1)
      #expect(Self.value(page, "instant_apps_loaded") == 1)
      // The session's write and the two sign-ins' users: three commits; the bad step refused.
      #expect(Self.value(page, #"instant_transactions_total{outcome="committed"}"#) == 3)
      #expect(Self.value(page, #"instant_transactions_total{outcome="refused"}"#) == 1)
      #expect(Self.value(page, #"instant_sign_ins_total{method="guest"}"#) == 1)
      #expect(Self.value(page, #"instant_sign_ins_total{method="magic-code"}"#) == 1)
      #expect(Self.value(page, #"instant_sign_ins_total{method="id-token"}"#) == 0)
      #expect((Self.value(page, "instant_refresh_duration_seconds_count") ?? 0) >= 1)
      #expect(page.contains("# HELP instant_queued_bytes"))
      #expect(!page.contains(code), "no code on the page")

      await session.close()
      try await eventually("the closed session leaves the page") {
        let page = String(decoding: try await metrics(server, token: Self.token).data, as: UTF8.self)
        return Self.value(page, "instant_sessions") == 0 && Self.value(page, "instant_queries") == 0
      }
    }
  }

  @Test("Without a token /metrics is off (404); /health/system answers as the reference's does")
  func offAndHealth() async throws {
    try await withInstantLocal { server in
      #expect(try await metrics(server, token: Self.token).status == 404)
      let (status, health) = try await server.http("GET", "/health/system")
      #expect(status == 200 && health == ["wal": "ok"])
      #expect(try await server.http("GET", "/health").1 == ["status": "ok"])
    }
  }
}
