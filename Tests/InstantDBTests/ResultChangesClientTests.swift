import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// The client kept current by result changes (docs/protocol.md, "Result changes") against a real
/// instant-local: a subscriber that has followed every change shows what a client that asks now,
/// and gets the whole result, shows.
@Suite("Result changes", .timeLimit(.minutes(10)))
struct ResultChangesClientTests {
  static let schema = ClientSchema(
    entities: [
      "goals": ["title": .init("string"), "rank": .init("number")],
      "todos": ["title": .init("string")],
    ],
    links: [
      .init(forward: .init(on: "goals", has: .many, label: "todos"), reverse: .init(on: "todos", has: .one, label: "goal"))
    ])

  /// Queries a change can reach in different ways: membership, order, limit, nested links.
  static let queries: [JSON] = [
    ["goals": ["todos": [:]]],
    ["goals": ["$": ["order": ["rank": "desc"], "limit": 5]]],
    ["todos": ["$": ["where": ["goal.title": "keep"]], "goal": [:]]],
  ]

  @Test("After 150 random writes from another client, in 5 rounds, each long-lived subscriber shows what a new one gets")
  func longLivedSubscribersAgreeWithNewOnes() async throws {
    // A random write may link a goal's one todo to a second goal: the server refuses it.
    try await withServer(allowingErrors: ["the server rejected a write: Record not unique: goals.todos"]) { server in
      let writer = server.client(schema: Self.schema)
      let lines = Locked<[String]>([])
      let reader = InstantClient(
        appId: LocalServer.appID, apiURI: URL(string: "http://127.0.0.1:\(server.port)")!,
        websocketURI: URL(string: "ws://127.0.0.1:\(server.port)/runtime/session")!, storage: .memory,
        schema: Self.schema, logger: CapturingLogHandler.logger(lines))
      let watchers = Self.queries.map { Watcher(reader.subscribe($0)) }
      for watcher in watchers { try await watcher.next { !$0.isFromCache } }
      var rng = SeededGenerator(seed: 33)
      var goals: [String] = []
      var todos: [String] = []
      for round in 0..<5 {
        for step in 0..<30 {
          let op: InstaMLOp
          switch Int.random(in: 0..<6, using: &rng) {
          case 0 where !goals.isEmpty:
            op = .delete("goals", .id(goals.remove(at: Int.random(in: 0..<goals.count, using: &rng))))
          case 1 where !goals.isEmpty:
            op = .update("goals", .id(goals.randomElement(using: &rng)!), [
              "title": .string(["keep", "drop"].randomElement(using: &rng)!), "rank": .number(Double(Int.random(in: 0..<20, using: &rng))),
            ])
          case 2 where !goals.isEmpty:
            let todo = InstantID.make()
            todos.append(todo)
            op = .update("todos", .id(todo), ["title": .string("todo \(round).\(step)")])
            _ = try await writer.transact(op)
            continue
          case 3 where !goals.isEmpty && !todos.isEmpty:
            op = .link("goals", .id(goals.randomElement(using: &rng)!), ["todos": .string(todos.randomElement(using: &rng)!)])
          case 4 where !todos.isEmpty:
            op = .delete("todos", .id(todos.remove(at: Int.random(in: 0..<todos.count, using: &rng))))
          default:
            let goal = InstantID.make()
            goals.append(goal)
            op = .update("goals", .id(goal), [
              "title": .string(["keep", "drop"].randomElement(using: &rng)!), "rank": .number(Double(Int.random(in: 0..<20, using: &rng))),
            ])
          }
          _ = try await writer.transact(op)
        }
        try await writer.transact(.update("goals", .id(InstantID.make()), ["title": .string("round \(round)"), "rank": -1])).synced()
        // A client that asks now gets each result whole; the reader must come to show the same.
        let fresh = server.client(schema: Self.schema)
        for (q, watcher) in zip(Self.queries, watchers) {
          let whole = try await Watcher(fresh.subscribe(q)).next { !$0.isFromCache }
          try await watcher.next("round \(round): \(q.serialized()) as a new client gets it") {
            $0.data == whole.data && !$0.hasPendingWrites
          }
        }
        await fresh.shutdown()
      }
      await writer.shutdown()
      await reader.shutdown()
      // It agreed by following changes, not by asking again: a result that lost step would be
      // asked for whole (and would agree in the end all the same).
      let all = lines.withLock { $0 }
      #expect(all.filter { $0.contains("instaql-result-changes") }.count >= 5, "the reader was sent changes (refreshes cover several writes)")
      #expect(!all.contains { $0.contains("lost step") })
    }
  }
}
