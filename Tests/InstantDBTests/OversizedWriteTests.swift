import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// A write the server will not read (larger than its `--max-message-bytes`) is refused with the
/// server's reason, rolled back, and does not hold up the writes queued after it.
@Suite("A write too large for the server", .timeLimit(.minutes(10)))
struct OversizedWriteTests {
  @Test("is refused with the server's limit, and the next write is acknowledged")
  func refusedAndTheQueueMovesOn() async throws {
    try await withServer(
      maxMessageBytes: 32 << 10,
      expectingErrors: ["the server rejected a write: Validation failed for message: The message is"]
    ) { server in
      let db = server.client()
      defer { Task { await db.shutdown() } }
      let todos = Watcher(db.subscribe(["todos": [:]]))
      try await todos.next { !$0.isFromCache }

      let big = InstantID.make()
      let large = try await db.transact(.update("todos", .id(big), ["title": .string(String(repeating: "x", count: 48 << 10))]))
      let small = InstantID.make()
      let next = try await db.transact(.update("todos", .id(small), ["title": "fits"]))
      // Waited for at most 20 s: before the server named the write in its error, nothing ever
      // answered it (it stayed pending and was sent again on every connection).
      let outcome = try await eventually("the 48 KiB write acknowledged or refused") {
        () async -> Result<Int, InstantClientError>? in
        do throws(InstantClientError) {
          return .success(try await large.synced())
        } catch {
          return .failure(error)
        }
      }
      switch outcome {
      case .failure(let error):
        #expect(error.kind == .transactionRejected, "\(error)")
        #expect(error.message.contains("the limit is 32768"), "\(error.message)")
      case .success:
        Issue.record("a 48 KiB write was acknowledged by a server that reads at most 32 KiB")
      }
      _ = try await next.synced()
      try await todos.next { $0.rows("todos").map { $0["id"]?.stringValue } == [small] && !$0.hasPendingWrites }
      #expect(await db.pendingWrites.isEmpty)
    }
  }

}
