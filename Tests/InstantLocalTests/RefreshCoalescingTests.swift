import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing
internal import OrderedCollections

/// A session's burst of transactions (a client flushing its offline backlog) is refreshed in
/// passes over what arrived together, as the reference server coalesces a session's pending
/// refreshes: every write is acknowledged in order, subscribers get fewer, complete refreshes.
@Suite("refresh coalescing", .timeLimit(.minutes(10)))
struct RefreshCoalescingTests {
  @Test("A burst of transactions: every transact-ok in order; fewer refresh-oks than writes, the last complete")
  func burst() async throws {
    try await withInstantLocal { server in
      let goalsID = newID()
      let goalsTitle = newID()
      let (writer, _) = try await server.connect()
      let (reader, _) = try await server.connect()
      try await writer.request(
        transact([blobAttr(goalsID, "goals", "id", unique: true, indexed: true), blobAttr(goalsTitle, "goals", "title")]))
      try await reader.request(["op": "add-query", "q": ["goals": [:]]])

      let writes = 40
      for i in 0..<writes {
        var message = transact(createEntity(newID(), idAttr: goalsID, [goalsTitle: .string("g\(i)")])).objectValue!
        message["client-event-id"] = .string("e\(i)")
        writer.send(.object(message))
      }
      var acknowledged: [JSON] = []
      var txIDs: [Int] = []
      for _ in 0..<writes {
        let ok = try await writer.next { $0["op"] == "transact-ok" }
        acknowledged.append(ok["client-event-id"] ?? .null)
        txIDs.append(ok["tx-id"]?.intValue ?? -1)
      }
      #expect(acknowledged == (0..<writes).map { .string("e\($0)") })
      #expect(txIDs == txIDs.sorted() && Set(txIDs).count == writes)

      var refreshes = 0
      var goals = 0
      while goals < writes {
        let refresh = try await reader.next { $0["op"] == "refresh-ok" }
        refreshes += 1
        #expect(refresh["processed-tx-id"]?.intValue ?? 0 <= txIDs.last!)
        let result = refresh["computations"]?[0]?["instaql-result"]
        goals = triples(result).filter { $0[1] == .string(goalsID) }.count
      }
      #expect(goals == writes)
      #expect(refreshes < writes, "\(refreshes) refresh-oks for \(writes) writes sent together")
    }
  }
}
