import InstantCore
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing

/// `result-changes` (docs/protocol.md, "Result changes"): a session of this library's client
/// gets what changed in a result; InstantDB's clients, and this library's before 0.2.0, get whole
/// results exactly as before.
@Suite struct ResultChangesSessionTests {
  static let ours: JSON = ["@instantdb/core": "v1.0.65", "sharing-instant": "0.2.0"]
  static let oursBefore: JSON = ["@instantdb/core": "v1.0.65", "sharing-instant": "0.1.0"]
  let goalsID = newID()
  let goalsTitle = newID()

  /// The `refresh-ok` frames of `session` up to the one for transaction `txID` (refreshes may
  /// cover several transactions).
  static func refreshes(_ session: TestSession, through txID: Int) async throws -> [JSON] {
    var out: [JSON] = []
    while true {
      let refresh = try await session.next(op: "refresh-ok")
      out.append(refresh)
      if (refresh["processed-tx-id"]?.intValue ?? 0) >= txID { return out }
    }
  }

  /// A query instant-local keeps current from what each write touched (one namespace, no
  /// pagination), and one it evaluates whole (a window that writes move).
  static let queries: [(q: JSON, keptFromChanges: Bool)] = [
    (["goals": ["$": ["order": ["serverCreatedAt": "asc"]]]], true),
    (["goals": ["$": ["limit": 5, "order": ["serverCreatedAt": "desc"]]]], false),
  ]

  @Test(
    "Over 60 random writes, the result a session keeps from changes is the whole result the others get; they get no changes",
    arguments: 0..<2)
  func changesAgreeWithWholeResults(_ index: Int) async throws {
    let (q, keptFromChanges) = Self.queries[index]
    try await withInstantLocal { server in
      let (changing, _) = try await server.connect(versions: Self.ours)
      let (whole, _) = try await server.connect()
      let (older, _) = try await server.connect(versions: Self.oursBefore)
      let (writer, _) = try await server.connect()
      var kept = Set<Triple>()
      for session in [changing, whole, older] {
        let ok = try await session.request(["op": "add-query", "q": q])
        #expect(ok["op"] == "add-query-ok")
        if session === changing { kept = Set(triples(ok["result"]).compactMap(Triple.init(json:))) }
      }
      _ = try await writer.request(transact([blobAttr(goalsID, "goals", "id", unique: true, indexed: true), blobAttr(goalsTitle, "goals", "title")]))
      var rng = SeededGenerator(seed: 30)
      var ids: [String] = []
      var changesSeen = 0
      for step in 0..<60 {
        var steps: [JSON]
        switch Int.random(in: 0..<3, using: &rng) {
        case 0 where !ids.isEmpty:
          steps = [["delete-entity", .string(ids.remove(at: Int.random(in: 0..<ids.count, using: &rng))), "goals"]]
        case 1 where !ids.isEmpty:
          steps = [addTriple(ids.randomElement(using: &rng)!, goalsTitle, .string("renamed \(step)"))]
        default:
          let id = newID()
          ids.append(id)
          steps = createEntity(id, idAttr: goalsID, [goalsTitle: .string("goal \(step)")])
        }
        let ok = try await writer.request(transact(steps))
        let txID = try #require(ok["tx-id"]?.intValue, "step \(step): \(ok)")
        var expected = Set<Triple>()
        for refresh in try await Self.refreshes(whole, through: txID) {
          for computation in refresh["computations"]?.arrayValue ?? [] {
            #expect(computation["instaql-result-changes"] == nil, "InstantDB's clients get whole results")
            expected = Set(triples(computation["instaql-result"]).compactMap(Triple.init(json:)))
          }
        }
        for refresh in try await Self.refreshes(older, through: txID) {
          for computation in refresh["computations"]?.arrayValue ?? [] {
            #expect(computation["instaql-result"] != nil, "before 0.2.0, whole results")
          }
        }
        for refresh in try await Self.refreshes(changing, through: txID) {
          for computation in refresh["computations"]?.arrayValue ?? [] {
            #expect(computation["instaql-result"] == nil, "step \(step): a whole result to a session that reads changes")
            let changes = try #require(computation["instaql-result-changes"].flatMap(ResultChanges.init(json:)))
            changesSeen += 1
            for triple in changes.removed { #expect(kept.remove(triple) != nil, "step \(step): \(triple) was not in the result") }
            for triple in changes.added { #expect(kept.insert(triple).inserted, "step \(step): \(triple) was in the result") }
            #expect(kept.count == changes.count)
            // The changes are small: one entity's triples at most, whatever the result's size.
            #expect(changes.added.count + changes.removed.count <= 4, "step \(step): \(changes.json.serialized())")
          }
        }
        #expect(kept == expected, "step \(step)")
        if kept != expected { return }
      }
      // Every write changed the result (the window's page info also changes when its attrs come).
      #expect(changesSeen == (keptFromChanges ? 60 : 61))
      // The server kept the result current from what each write touched, or evaluated it whole.
      let counts = await server.resultCounts(appID: TestSession.appID)
      if keptFromChanges {
        #expect(counts.kept == 60, "\(counts)")
      } else {
        #expect(counts.kept == 0, "\(counts)")
      }
      // A write outside the query sends the changing session nothing for it.
      let other = newID()
      let outside = try await writer.request(transact([blobAttr(other, "notes", "id", unique: true, indexed: true)] + createEntity(newID(), idAttr: other)))
      _ = try #require(outside["tx-id"]?.intValue)
      let after = await changing.collect(for: .milliseconds(300))
      #expect(after.allSatisfy { $0["computations"] == nil || $0["computations"] == [] }, "\(after)")
    }
  }
}
