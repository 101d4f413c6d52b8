import Foundation
import InstantChaos
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// Connections cut at random while two clients write: both converge on the server's state, which
/// equals a model of every write.
@Suite("Connection cuts", .timeLimit(.minutes(10)))
struct ConnectionCutTests {
  @Test("Random cuts during a stream of writes from two clients: nothing lost, both converge")
  func randomCuts() async throws {
    try await withServer { server in
      let proxy = try await ChaosProxy.start(to: server.port)
      defer { Task { await proxy.stop() } }
      let a = LocalServer.client(port: proxy.port)
      let b = LocalServer.client(port: proxy.port)
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let query: JSON = ["notes": [:]]
      let watchA = Watcher(a.subscribe(query))
      let watchB = Watcher(b.subscribe(query))
      try await watchA.next { !$0.isFromCache }
      try await watchB.next { !$0.isFromCache }

      // The attributes exist before the storm, as in an app whose schema is pushed: two clients
      // creating the same new attribute at once is a different race (see docs/client.md).
      let seed = InstantID.make()
      try await a.transact(.update("notes", .id(seed), ["v": 0])).synced()
      try await watchB.next { $0.rows("notes").count == 1 }  // B can only show it with A's attrs
      try await a.transact(.delete("notes", .id(seed))).synced()
      try await watchB.next { $0.rows("notes").isEmpty }

      var rng = SeededGenerator(seed: 0xC0FFEE)
      print("ConnectionCutTests seed 0xC0FFEE")
      var model: [String: Double] = [:]
      let ids = (0..<12).map { _ in InstantID.make(using: &rng) }
      let rejectionsA = Watching(a.rejectedWrites())
      let rejectionsB = Watching(b.rejectedWrites())
      var cuts = 0
      for n in 0..<150 {
        let client = n % 2 == 0 ? a : b
        // Each note is written by one client alone (A the first half, B the second): only each
        // client's own order is guaranteed, so the model is exact.
        let id = ids[(n % 2) * 6 + Int(rng.next() % 6)]
        if rng.next() % 7 == 0 {
          try await client.transact(.delete("notes", .id(id)))
          model[id] = nil
        } else {
          try await client.transact(.update("notes", .id(id), ["v": .number(Double(n))]))
          model[id] = Double(n)
        }
        if rng.next() % 15 == 0 {
          proxy.drop()
          cuts += 1
        }
        if rng.next() % 5 == 0 { try await Task.sleep(for: .milliseconds(Int(rng.next() % 20))) }
      }
      #expect(cuts > 3, "the run cut connections several times")
      try await eventually("every write is acknowledged") {
        let pa = await a.pendingWrites
        let pb = await b.pendingWrites
        return (pa + pb).allSatisfy { $0.state == .synced }
      }
      // The one refusal a cut can cause (docs/client.md, "Re-sends and duplicates"): an update
      // re-sent after it and this client's later delete of the entity both committed. Anything
      // else is a failure; whether every write landed is checked against the model below.
      let refused = (rejectionsA.values + rejectionsB.values).filter {
        !$0.error.description.contains("Updating entities that don't exist")
      }
      #expect(refused.isEmpty, "refused: \(refused)")

      let expected = model
      @Sendable func matchesModel(_ r: QueryResult) -> Bool {
        var seen: [String: Double] = [:]
        for row in r.rows("notes") { seen[row["id"]!.stringValue!] = row["v"]?.numberValue }
        return seen == expected && !r.hasPendingWrites
      }
      try await watchA.next("A to converge", where: matchesModel)
      try await watchB.next("B to converge", where: matchesModel)
    }
  }
}
