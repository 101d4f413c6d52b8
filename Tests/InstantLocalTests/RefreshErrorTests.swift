import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

@Suite("a subscribed query that starts failing")
struct RefreshErrorTests {
  @Test func getsOneErrorShapedLikeAFailedAddQueryAndRecovers() async throws {
    try await withInstantLocal { server in
      let (writer, _) = try await server.connect()
      let (reader, initOk) = try await server.connect()
      let goalsID = newID()
      let owner = newID()
      let g = newID()
      _ = try await writer.request(transact([blobAttr(goalsID, "goals", "id", unique: true)] + createEntity(g, idAttr: goalsID)))
      // `owner` does not exist yet, so the path matches nothing and the query runs.
      let broken: JSON = ["goals": ["$": ["where": ["owner.name": "Ada"]]]]
      let healthy: JSON = ["goals": [:]]
      #expect(try await reader.request(["op": "add-query", "q": broken])["op"] == "add-query-ok")
      #expect(try await reader.request(["op": "add-query", "q": healthy])["op"] == "add-query-ok")

      // `goals.owner` arrives as a blob: a link path through it cannot be evaluated any more.
      _ = try await writer.request(transact([blobAttr(owner, "goals", "owner")]))
      let refresh = try await reader.next(op: "refresh-ok")
      #expect(refresh["attrs"] != nil)
      #expect(refresh["computations"]?.arrayValue?.contains { $0["instaql-query"] == broken } == false)
      let error = try await reader.next(op: "error")
      #expect(error["status"] == 400)
      #expect(error["type"] == "validation-failed")
      #expect(error["hint"]?["data-type"] == "query")
      #expect(error["message"]?.stringValue?.hasPrefix("Validation failed for query: ") == true)
      #expect(error["client-event-id"] == .null)
      #expect(error["original-event"]?["op"] == "add-query", "clients route it to the query's subscribers")
      #expect(error["original-event"]?["q"] == broken)
      #expect(error["original-event"]?["session-id"] == initOk["session-id"])

      // Still failing: no second error; the healthy query keeps refreshing.
      _ = try await writer.request(transact([addTriple(g, owner, "someone")]))
      let next = try await reader.next(op: "refresh-ok")
      #expect(next["computations"]?[0]?["instaql-query"] == healthy)
      #expect(await reader.collect(for: .milliseconds(200)).allSatisfy { $0["op"] != "error" })

      // Once the query runs again, its result is sent.
      _ = try await writer.request(["op": "transact", "tx-steps": [["delete-attr", .string(owner)]]])
      let recovered = try await reader.next(op: "refresh-ok")
      #expect(recovered["computations"]?.arrayValue?.contains { $0["instaql-query"] == broken } == true)
      await writer.close()
      await reader.close()
    }
  }
}
