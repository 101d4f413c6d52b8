import Foundation
import InstantChaos
import InstantCore
import InstantDB
import Testing

/// Writes re-sent after their `transact-ok`s were lost are replayed in order over a server that
/// already applied them (protocol.md §3.7). Found by instant-chaos (docs/reliability.md).
@Suite("Re-sent writes replayed", .timeLimit(.minutes(1)))
struct ResendReplayTests {
  @Test("A re-sent batch refused for an entity this device deleted later does not undo its other steps")
  func refusedResendKeepsLaterValues() async throws {
    try await withServer { server in
      let proxy = try await ChaosProxy.start(to: server.port)
      defer { Task { await proxy.stop() } }
      let transport = InjectingTransport()
      let a = LocalServer.client(port: proxy.port, transport: transport)
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let watchA = Watcher(a.subscribe(["notes": [:]]))
      let watchB = Watcher(b.subscribe(["notes": [:]]))
      try await watchA.next { !$0.isFromCache }
      let x = InstantID.make()
      let y = InstantID.make()
      try await a.transact([.update("notes", .id(x), ["v": 0]), .update("notes", .id(y), ["v": 0])]).synced()
      try await watchA.next { $0.rows("notes").count == 2 && !$0.hasPendingWrites }

      // Three writes land but their acknowledgements are lost with the socket.
      transport.dropIncoming.withLock { $0 = { $0.contains("transact-ok") } }
      try await a.transact(.update("notes", .id(x), ["v": 1]))
      try await a.transact([.update("notes", .id(x), ["v": 2]), .update("notes", .id(y), ["v": 2])])
      try await a.transact(.delete("notes", .id(y)))
      try await watchB.next { $0.column("notes", "v") == [2] }
      try await waitUntil("three acknowledgements dropped") { transport.dropped.withLock { $0.count } == 3 }
      transport.dropIncoming.withLock { $0 = { _ in false } }
      proxy.drop()

      // After the re-sends: x keeps the value of the last write that set it.
      try await waitUntil(timeout: .seconds(20), "every write answered") {
        await a.pendingWrites.allSatisfy { $0.state == .synced }
      }
      let server = try await watchB.next(timeout: .seconds(5), "the server's x") { !$0.rows("notes").isEmpty }
      #expect(server.column("notes", "v") == [2], "x on the server after the re-sends")
      try await watchA.next(timeout: .seconds(5), "x on A") { $0.column("notes", "v") == [2] }
    }
  }
}
