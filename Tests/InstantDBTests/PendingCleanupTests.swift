import Foundation
import InstantCore
import Testing

@testable import InstantDB
internal import OrderedCollections

/// Acknowledged writes leave the queue even when a query on another namespace is never
/// refreshed, so its result never says it reflects them.
@Suite("Acknowledged writes behind a query no write touches", .timeLimit(.minutes(10)))
struct PendingCleanupTests {
  @Test("They stay while the query could still be refreshed, and are dropped once the threshold is reached")
  func droppedPastTheThreshold() async throws {
    try await withServer { server in
      let db = server.client()
      defer { Task { await db.shutdown() } }
      let todos = Watcher(db.subscribe(["todos": [:]]))
      let goals = Watcher(db.subscribe(["goals": [:]]))
      try await todos.next { !$0.isFromCache }
      try await goals.next { !$0.isFromCache }

      // The reference's threshold and age: five acknowledged writes wait behind `goals`.
      for n in 1...5 {
        try await db.transact(.update("todos", .id(InstantID.make()), ["n": .number(Double(n))])).synced()
      }
      try await todos.next { $0.rows("todos").count == 5 && !$0.hasPendingWrites }
      #expect(await db.pendingWrites.count == 5, "acknowledged, waiting for `goals` to reflect them")
      #expect(await db.pendingWrites.allSatisfy { $0.state == .synced })

      // A threshold of 8 and no age: the next write that brings the queue to 8 drops every
      // acknowledged one; the writes after it wait again.
      await db.reactor.setPendingCleanup(threshold: 8, age: .zero)
      for n in 6...10 {
        try await db.transact(.update("todos", .id(InstantID.make()), ["n": .number(Double(n))])).synced()
      }
      let left = await db.pendingWrites.count
      #expect(left < 8, "\(left) writes still queued")
      #expect(left >= 2, "the writes after the cleanup wait for `goals` again")
      try await todos.next { $0.rows("todos").count == 10 && !$0.hasPendingWrites }
    }
  }
}
