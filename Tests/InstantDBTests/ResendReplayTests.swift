import Foundation
import InstantChaos
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// Writes re-sent after their `transact-ok`s were lost are replayed in order over a server that
/// already applied them (docs/protocol.md, "Re-sent writes"). Found by instant-chaos (docs/reliability.md).
@Suite("Re-sent writes replayed", .timeLimit(.minutes(10)))
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
      try await eventually("three acknowledgements dropped") { transport.dropped.withLock { $0.count } == 3 }
      transport.dropIncoming.withLock { $0 = { _ in false } }
      proxy.drop()

      // After the re-sends: x keeps the value of the last write that set it.
      try await eventually("every write answered") {
        await a.pendingWrites.allSatisfy { $0.state == .synced }
      }
      let server = try await watchB.next("the server's x") { !$0.rows("notes").isEmpty }
      #expect(server.column("notes", "v") == [2], "x on the server after the re-sends")
      try await watchA.next("x on A") { $0.column("notes", "v") == [2] }
    }
  }

  @Test("A re-sent unique link undone and made elsewhere later is left out, so its write's other steps land")
  func movedUniqueLink() async throws {
    try await withServer { server in
      let proxy = try await ChaosProxy.start(to: server.port)
      defer { Task { await proxy.stop() } }
      let transport = InjectingTransport()
      let schema = ChaosSchema.client
      let a = LocalServer.client(port: proxy.port, schema: schema, transport: transport)
      let b = server.client(schema: schema)
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let query: JSON = ["lists": ["items": [:]], "items": [:]]
      let watchA = Watcher(a.subscribe(query))
      let watchB = Watcher(b.subscribe(query))
      try await watchA.next { !$0.isFromCache }
      let (l1, l2, item) = (InstantID.make(), InstantID.make(), InstantID.make())
      try await a.transact([
        .create("lists", .id(l1), ["title": "one"]), .create("lists", .id(l2), ["title": "two"]),
        .create("items", .id(item), ["text": "t", "n": 0]),
      ]).synced()

      // Four writes land but their acknowledgements are lost with the socket.
      transport.dropIncoming.withLock { $0 = { $0.contains("transact-ok") } }
      try await a.transact(.update("items", .id(item), ["n": 1]))
      try await a.transact([.link("lists", .id(l1), ["items": .string(item)]), .update("items", .id(item), ["n": 2])])
      try await a.transact(.unlink("lists", .id(l1), ["items": .string(item)]))
      try await a.transact(.link("lists", .id(l2), ["items": .string(item)]))
      try await eventually("four acknowledgements dropped") { transport.dropped.withLock { $0.count } == 4 }
      transport.dropIncoming.withLock { $0 = { _ in false } }
      proxy.drop()

      try await eventually("every write answered") {
        await a.pendingWrites.allSatisfy { $0.state == .synced }
      }
      let onServer = try await watchB.next("the item under l2") {
        $0.rows("lists").contains { $0["id"] == .string(l2) && $0["items"]?.arrayValue?.count == 1 }
      }
      #expect(onServer.column("items", "n") == [2], "n on the server after the re-sends")
    }
  }

  @Test("A create re-sent after its first send never arrived is kept when later writes update, then delete, its entity")
  func createNeededByLaterWrites() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let watchA = Watcher(a.subscribe(["notes": [:], "tags": [:]]))
      let watchB = Watcher(b.subscribe(["notes": [:]]))
      try await watchA.next { !$0.isFromCache }
      try await a.transact(.update("tags", .id(InstantID.make()), ["name": "schema"])).synced()
      try await a.transact(.update("notes", .id(InstantID.make()), ["v": 0])).synced()

      // The create is sent, and lost on the way.
      let tag = InstantID.make()
      let note = InstantID.make()
      transport.dropOutgoing.withLock { $0 = { $0.contains("\"transact\"") } }
      try await a.transact(.update("tags", .id(tag), ["name": "new"]))
      try await eventually("the create is sent") { await a.pendingWrites.last?.state == .sent }
      await a.setNetworkAvailable(false)
      transport.dropOutgoing.withLock { $0 = { _ in false } }
      // Offline: a strict update of the tag (this device has seen it), a note, then the tag's delete.
      try await a.transact([.update("tags", .id(tag), ["name": "renamed"]), .update("notes", .id(note), ["v": 1])])
      try await a.transact(.delete("tags", .id(tag)))
      let rejections = Watching(a.rejectedWrites())
      await a.setNetworkAvailable(true)

      try await eventually("every write answered") {
        await a.pendingWrites.allSatisfy { $0.state == .synced }
      }
      #expect(rejections.values.isEmpty, "refused: \(rejections.values)")
      try await watchB.next("the note on the server") { Set($0.column("notes", "v")) == [0, 1] }
    }
  }
}
