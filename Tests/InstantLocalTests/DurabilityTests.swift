import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing

@Suite("durability")
struct DurabilityTests {
  @Test func restartServesTheSameDataAndKeepsTxIDsIncreasing() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-local-\(newID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("data.sqlite").path
    let idAttr = newID()
    let title = newID()
    let g = newID()
    let (firstTx, guestToken) = try await withInstantLocal(configuration: .testing(dataFile: path)) { server in
      let (s, _) = try await server.connect()
      let schema = [blobAttr(idAttr, "goals", "id", unique: true), blobAttr(title, "goals", "title")]
      let ok = try await s.request(transact(schema + createEntity(g, idAttr: idAttr, [title: "Persist"])))
      let (_, guest) = try await server.signInGuest()
      await s.close()
      return (try #require(ok["tx-id"]?.intValue), try #require(guest["user"]?["refresh_token"]?.stringValue))
    }
    try await withInstantLocal(configuration: .testing(dataFile: path)) { server in
      let (s, reply) = try await server.connect(refreshToken: guestToken)
      #expect(reply["op"] == "init-ok")
      #expect(reply["auth"]?["user"]?["type"] == "guest")
      #expect(reply["attrs"]?.arrayValue?.contains { $0["id"] == .string(title) } == true)
      let result = try await s.request(["op": "add-query", "q": ["goals": [:]]])
      #expect(triples(result["result"]).contains { $0[0] == .string(g) && $0[2] == "Persist" })
      #expect((result["processed-tx-id"]?.intValue ?? 0) > firstTx)
      let ok = try await s.request(["op": "transact", "tx-steps": [["add-triple", .string(g), .string(title), "Again"]]])
      #expect((ok["tx-id"]?.intValue ?? 0) > firstTx + 1)
      await s.close()
    }
  }

  @Test func walIsCheckpointedInTheBackground() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("instant-local-\(newID())")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("data.sqlite").path
    try await withInstantLocal(configuration: .testing(dataFile: path)) { server in
      let (s, _) = try await server.connect()
      let idAttr = newID()
      let body = newID()
      _ = try await s.request(["op": "transact", "tx-steps": [blobAttr(idAttr, "docs", "id", unique: true), blobAttr(body, "docs", "body")]])
      let text = String(repeating: "x", count: 4000)
      for _ in 0..<200 {
        let d = newID()
        _ = try await s.request(transact(createEntity(d, idAttr: idAttr, [body: .string(text)])))
      }
      // Commits only append to the WAL; the checkpointer copies them into the database file.
      try await eventually("the database file holds the 200 commits", every: .milliseconds(100)) {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) >= 600_000
      }
      await s.close()
    }
  }
}
