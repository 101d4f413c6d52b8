import Foundation
import InstantCore
import InstantDB
import Testing
internal import OrderedCollections

/// Answers are numbered in the order the client made them, so a caller that receives them by two
/// routes (a subscription and `currentResult`) can tell the newer one.
@Suite("Result sequence", .timeLimit(.minutes(10)))
struct ResultSequenceTests {
  @Test("Each new answer is numbered after every earlier one; currentResult is the last one given")
  func numberedInOrder() async throws {
    try await withServer { server in
      let client = server.client()
      defer { Task { await client.shutdown() } }
      let todos: JSON = ["todos": [:]]
      #expect(await client.currentResult(todos) == nil, "nobody is subscribed yet")

      let watch = Watcher(client.subscribe(todos))
      for title in ["a", "b", "c"] {
        try await client.transact(.update("todos", .id(InstantID.make()), ["title": JSON.string(title)])).synced()
      }
      try await watch.next { $0.rows("todos").count == 3 && !$0.hasPendingWrites && !$0.isFromCache }
      let current = try #require(await client.currentResult(todos))
      #expect(current == watch.last)
      #expect(current.rows("todos").count == 3)

      let sequences = watch.all.map(\.sequence)
      #expect(sequences.allSatisfy { $0 > 0 })
      #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count, "\(sequences)")
    }
  }
}
