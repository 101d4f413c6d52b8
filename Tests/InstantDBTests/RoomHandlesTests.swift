import Foundation
import InstantCore
import TestSupport
import Testing

@testable import InstantDB

/// The life of room handles on one client: one join per room, leave on the last handle, presence
/// and events before the join is confirmed, typed topic payloads.
@Suite("Room handles", .timeLimit(.minutes(10)))
struct RoomHandlesTests {
  @Test("Two handles on one room send one join-room; the room is left only when both are gone")
  func oneJoinPerRoom() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let first = await a.joinRoom(type: "chat", id: "h1", initialPresence: ["n": 1] as JSON)
      let second = await a.joinRoom(type: "chat", id: "h1", initialPresence: ["n": 2] as JSON)
      let roomB = await b.joinRoom(type: "chat", id: "h1")
      let seenByB = Watching(roomB.presenceUpdates())
      try await waitFor(seenByB, "B sees A with the first handle's presence") { $0.peers.map(\.data) == [["n": 1]] }
      #expect(transport.sent.filter { $0.contains("\"join-room\"") }.count == 1)
      let secondView = await second.presence
      #expect(secondView.user == ["n": 1], "the presence already set wins")

      await first.leave()
      try await Task.sleep(for: .milliseconds(100))
      #expect(!transport.sent.contains { $0.contains("\"leave-room\"") })
      #expect(seenByB.values.last?.peers.count == 1)
      await second.leave()
      try await waitFor(seenByB, "B sees A leave") { $0.peers.isEmpty }
      #expect(transport.sent.filter { $0.contains("\"leave-room\"") }.count == 1)
    }
  }

  @Test("A room joined first without presence (for a topic) takes the next handle's initial presence")
  func topicHandleFirst() async throws {
    try await withServer { server in
      let a = server.client()
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let roomB = await b.joinRoom(type: "chat", id: "h4")
      let seenByB = Watching(roomB.presenceUpdates())
      let topicOnly = await a.joinRoom(type: "chat", id: "h4")
      let withPresence = await a.joinRoom(type: "chat", id: "h4", initialPresence: ["name": "Ann"] as JSON)
      try await waitFor(seenByB, "B sees A's presence, not {}") { $0.peers.map(\.data) == [["name": "Ann"]] }
      #expect(await withPresence.presence.user == ["name": "Ann"])
      #expect(await topicOnly.presence.user == ["name": "Ann"])
    }
  }

  @Test("Presence set before join-room-ok is what peers see; leaving before join-room-ok still leaves")
  func beforeTheJoin() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let roomB = await b.joinRoom(type: "chat", id: "h2")
      let seenByB = Watching(roomB.presenceUpdates())
      try await waitFor(seenByB, "B joined") { !$0.isLoading }

      let early = await a.joinRoom(type: "chat", id: "h2", initialPresence: ["step": 1] as JSON)
      try await early.setPresence(["step": 2])
      try await waitFor(seenByB, "B sees A's latest presence") { $0.peers.map(\.data) == [["step": 2]] }

      // A room left before its join-room-ok arrives: the client leaves when it does.
      await early.leave()
      try await waitFor(seenByB, "A is gone") { $0.peers.isEmpty }
      try await eventually("connected") { await a.status == .authenticated }
      let quick = await a.joinRoom(type: "chat", id: "h3")
      await quick.leave()
      try await eventually("the late join-room-ok is answered with leave-room") {
        transport.sent.contains { $0.contains("\"leave-room\"") && $0.contains("h3") }
      }
      let probe = await b.joinRoom(type: "chat", id: "h3")
      let seenByProbe = Watching(probe.presenceUpdates())
      try await waitFor(seenByProbe, "B alone in h3") { !$0.isLoading && $0.peers.isEmpty }
    }
  }

  @Test("Typed topic events: a payload that does not decode is skipped, the next one arrives")
  func typedTopics() async throws {
    try await withServer(expectingErrors: ["skipped a emoji event in room h4 that does not decode as Emoji"]) { server in
      let a = server.client()
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let roomA = await a.joinRoom(type: "chat", id: "h4")
      let roomB = await b.joinRoom(type: "chat", id: "h4")
      let typed = Watching(roomB.events(topic: "emoji", as: Emoji.self))
      let untyped = Watching(roomB.events(topic: "emoji"))
      let other = Watching(roomB.events(topic: "other"))
      let seenByA = Watching(roomA.presenceUpdates())
      try await waitFor(seenByA, "A sees B") { $0.hasPeers }

      try await roomA.publish(topic: "emoji", ["emoji": 5] as JSON)
      try await roomA.publish(topic: "emoji", Emoji(emoji: "🎉"))
      try await eventually("both events reach the untyped stream") { untyped.values.count == 2 }
      try await eventually("the good one reaches the typed stream") { typed.values.count == 1 }
      #expect(typed.values.map(\.data) == [Emoji(emoji: "🎉")])
      #expect(untyped.values.first?.data == ["emoji": 5])
      #expect(other.values.isEmpty, "topics are separate")
    }
  }
}
