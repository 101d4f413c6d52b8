import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// The session of docs/protocol.md, "Example session", driven through the public API against instant-local:
/// every frame the client sends has the reference client's op and exactly its fields, in the
/// reference's order of events.
@Suite("Wire transcript (docs/protocol.md, Example session)", .timeLimit(.minutes(10)))
struct WireTranscriptTests {
  @Test("init, one add-query for two subscribers, transact, join-room, set-presence on join-room-ok, client-broadcast, remove-query, leave-room")
  func appendixA() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      defer { Task { await a.shutdown() } }
      let q: JSON = ["goals": ["todos": [:]]]
      let first = Watcher(a.subscribe(q))
      let second = Watcher(a.subscribe(q))
      try await first.next { !$0.isFromCache }
      try await second.next { !$0.isFromCache }
      try await a.transact(.update("goals", .id(InstantID.make()), ["title": "Run"])).synced()

      let room = try await a.joinRoom(type: "chat", id: "r1", initialPresence: ["name": "Al"])
      try await eventually("set-presence follows join-room-ok") { transport.sent.contains { $0.contains("\"set-presence\"") } }
      try await room.publish(topic: "emoji", ["e": "🔥"] as JSON)
      try await eventually("the broadcast is sent") { transport.sent.contains { $0.contains("\"client-broadcast\"") } }
      first.stop()
      second.stop()
      try await eventually("remove-query once the last subscriber left") { transport.sent.contains { $0.contains("\"remove-query\"") } }
      await room.leave()
      try await eventually("leave-room") { transport.sent.contains { $0.contains("\"leave-room\"") } }

      let frames = try transport.sent.map { try JSON.parse($0) }
      let ops = frames.compactMap { $0["op"]?.stringValue }
      #expect(ops == ["init", "add-query", "transact", "join-room", "set-presence", "client-broadcast", "remove-query", "leave-room"])
      let expectedKeys: [String: Set<String>] = [
        "init": ["op", "client-event-id", "app-id", "versions"],
        "add-query": ["op", "client-event-id", "q"],
        "transact": ["op", "client-event-id", "tx-steps", "created", "order"],
        "join-room": ["op", "client-event-id", "room-type", "room-id", "data"],
        "set-presence": ["op", "client-event-id", "room-id", "data"],
        "client-broadcast": ["op", "client-event-id", "room-id", "roomType", "topic", "data"],
        "remove-query": ["op", "client-event-id", "q"],
        "leave-room": ["op", "client-event-id", "room-id"],
      ]
      var eventIDs: Set<String> = []
      for frame in frames {
        let op = frame["op"]?.stringValue ?? "?"
        #expect(Set(frame.objectValue?.keys.map { $0 } ?? []) == expectedKeys[op], "fields of \(op)")
        let id = frame["client-event-id"]?.stringValue ?? ""
        #expect(UUID(uuidString: id) != nil && id == id.lowercased(), "\(op) has a lower-case UUID event id")
        eventIDs.insert(id)
      }
      #expect(eventIDs.count == frames.count, "every frame has its own client-event-id")
      let join = frames[3]
      #expect(join["room-type"] == "chat" && join["room-id"] == "r1" && join["data"] == ["name": "Al"])
      #expect(frames[4]["data"] == ["name": "Al"], "the current presence again on join-room-ok")
      #expect(frames[5]["roomType"] == "chat" && frames[5]["topic"] == "emoji" && frames[5]["data"] == ["e": "🔥"])
      #expect(frames[6]["q"] == q)
    }
  }
}
