import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// The README's client example, as written there (only the port and in-memory storage differ).
@Suite("README", .timeLimit(.minutes(10)))
struct ReadmeExampleTests {
  @Test("The client example runs as written")
  func clientExample() async throws {
    try await withServer { server in
      let db = InstantClient(
        appId: "6a0e5a43-2d2c-4f4e-9a53-1c8f3d6f0b11",
        apiURI: URL(string: "http://127.0.0.1:\(server.port)")!,
        websocketURI: URL(string: "ws://127.0.0.1:\(server.port)/runtime/session")!,
        storage: .memory)
      let printed = Locked<[String]>([])
      let reader = Task {
        for await result in db.subscribe(["todos": ["$": ["order": ["serverCreatedAt": "asc"]]]]) {
          printed.withLock { $0.append("\(result.data) \(result.hasPendingWrites ? "(saving…)" : "")") }
        }
      }
      let write = try await db.transact(.update("todos", .id(InstantID.make()), ["title": "Run"]))
      try await write.synced()
      try await eventually("the subscriber prints the todo") {
        printed.withLock { $0.contains { $0.contains("\"Run\"") && !$0.contains("saving") } }
      }
      reader.cancel()
      await db.shutdown()
    }
  }
}
