import Foundation
import InstantChaos
import InstantCore
@testable import InstantDB
import TestSupport
import Testing

struct Cursor: Codable, Sendable, Equatable {
  var name: String
  var x: Double
}

struct Emoji: Codable, Sendable, Equatable {
  var emoji: String
}

/// Rooms between two real clients through instant-local: presence, topics, reconnects, bad input.
@Suite("Rooms", .timeLimit(.minutes(10)))
struct RoomsTests {
  @Test("Presence: a join, an update and a leave are seen by the other client; your own session is never a peer")
  func presenceJoinUpdateLeave() async throws {
    try await withServer { server in
      let a = server.client()
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let roomA = try await a.joinRoom(type: "cursors", id: "r1", initialPresence: Cursor(name: "A", x: 1))
      let seenByA = Watching(roomA.presenceUpdates())
      try await waitFor(seenByA, "A joined") { !$0.isLoading }

      var roomB: InstantRoom<Cursor>? = try await b.joinRoom(type: "cursors", id: "r1", initialPresence: Cursor(name: "B", x: 2))
      let seenByB = Watching(roomB!.presenceUpdates())
      try await waitFor(seenByA, "A sees B") { $0.peers.map(\.data) == [Cursor(name: "B", x: 2)] }
      try await waitFor(seenByB, "B sees A") { $0.peers.map(\.data) == [Cursor(name: "A", x: 1)] }
      let b1 = seenByB.values.last!
      #expect(b1.peerID != nil && !b1.peers.contains { $0.id == b1.peerID })
      #expect(b1.user == Cursor(name: "B", x: 2))

      try await roomB!.setPresence(Cursor(name: "B", x: 42))
      try await waitFor(seenByA, "A sees B's update") { $0.peers.map(\.data) == [Cursor(name: "B", x: 42)] }
      try await roomB!.updatePresence { $0.x += 1 }
      try await waitFor(seenByA, "A sees B's in-place update") { $0.peers.first?.data.x == 43 }

      await roomB!.leave()
      roomB = nil
      try await waitFor(seenByA, "A sees B leave") { $0.peers.isEmpty }
      let final = seenByA.values.last!
      #expect(final.totalCount == 1)
      #expect(!final.hasPeers)
    }
  }

  @Test("Topics both ways, with the sender's peer id; events published before the join are sent after it")
  func topicsBothWays() async throws {
    try await withServer { server in
      let a = server.client()
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let roomA = await a.joinRoom(type: "chat", id: "t1")
      let roomB = await b.joinRoom(type: "chat", id: "t1")
      let atA = Watching(roomA.events(topic: "emoji", as: Emoji.self))
      let atB = Watching(roomB.events(topic: "emoji", as: Emoji.self))
      let presenceA = Watching(roomA.presenceUpdates())
      let presenceB = Watching(roomB.presenceUpdates())
      try await waitFor(presenceA, "A sees B") { $0.hasPeers }
      try await waitFor(presenceB, "B sees A") { $0.hasPeers }

      try await roomA.publish(topic: "emoji", Emoji(emoji: "🔥"))
      try await roomB.publish(topic: "emoji", Emoji(emoji: "👋"))
      try await eventually("B gets A's event") { atB.values.count == 1 }
      try await eventually("A gets B's event") { atA.values.count == 1 }
      #expect(atB.values.first?.data == Emoji(emoji: "🔥"))
      #expect(atB.values.first?.peerID == presenceA.values.last?.peerID)
      #expect(atA.values.first?.data == Emoji(emoji: "👋"))
      #expect(atA.values.first?.peerID == presenceB.values.last?.peerID)
      #expect(atA.values.first?.topic == "emoji")

      // A third client publishes at once after joining, before its join-room-ok can have arrived.
      let c = server.client()
      defer { Task { await c.shutdown() } }
      let roomC = await c.joinRoom(type: "chat", id: "t1")
      for n in 1...3 { try await roomC.publish(topic: "emoji", Emoji(emoji: "\(n)")) }
      try await eventually("B gets C's queued events in order") { atB.values.count == 4 }
      #expect(atB.values.dropFirst().map(\.data.emoji) == ["1", "2", "3"])
      try await eventually("A gets C's events too") { atA.values.count == 4 }
      // Nobody hears their own broadcast.
      let peerA = presenceA.values.last?.peerID
      #expect(!atA.values.contains { $0.peerID == peerA })
      #expect(!atB.values.contains { $0.peerID == presenceB.values.last?.peerID })
    }
  }

  @Test("A cut connection: both clients stay in the room with current presence; the old session disappears")
  func reconnectRejoins() async throws {
    try await withServer { server in
      let proxy = try await ChaosProxy.start(to: server.port)
      defer { Task { await proxy.stop() } }
      let transport = InjectingTransport()
      let a = LocalServer.client(port: proxy.port, transport: transport)
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let roomA = try await a.joinRoom(type: "cursors", id: "re", initialPresence: Cursor(name: "A", x: 0))
      let roomB = try await b.joinRoom(type: "cursors", id: "re", initialPresence: Cursor(name: "B", x: 0))
      let seenByA = Watching(roomA.presenceUpdates())
      let seenByB = Watching(roomB.presenceUpdates())
      try await waitFor(seenByB, "B sees A") { $0.peers.map(\.data.name) == ["A"] }
      try await roomA.setPresence(Cursor(name: "A", x: 7))
      try await waitFor(seenByB, "B sees A at 7") { $0.peers.first?.data.x == 7 }
      let firstPeerID = seenByA.values.last?.peerID

      proxy.drop()
      try await waitFor(seenByA, "A is back with a new session") { !$0.isLoading && $0.peerID != firstPeerID && $0.hasPeers }
      try await waitFor(seenByB, "B sees the new session of A, still at 7") {
        $0.peers.count == 1 && $0.peers.first?.id != firstPeerID && $0.peers.first?.data == Cursor(name: "A", x: 7)
      }
      #expect(seenByA.values.contains { $0.isLoading && $0.peerID == nil }, "A showed it was out of the room while cut")
      #expect(seenByA.values.last?.peers.map(\.data) == [Cursor(name: "B", x: 0)])
      let joins = transport.sent.filter { $0.contains("\"join-room\"") }
      #expect(joins.count == 2)
      #expect(joins.last?.contains("\"x\":7") == true, "the re-join carries the current presence")
    }
  }

  @Test("A peer whose presence does not decode, and malformed presence frames, are reported, never a crash")
  func malformedPresence() async throws {
    let reported = [
      "does not decode as Cursor", "skipped a presence edit that does not apply: an edit is not [path, op, value?]",
      "skipped a presence edit that does not apply: a path that does not match the presence's shape",
      "skipped patch-presence without edits", "skipped refresh-presence without a data object",
      "skipped a server-broadcast without topic, data or peer-id", "skipped join-room-ok without a room-id",
    ]
    try await withServer(expectingErrors: reported) { server in
      let transport = InjectingTransport()
      let typed = server.client(transport: transport)
      let raw = server.client()
      let good = server.client()
      defer { Task { await typed.shutdown(); await raw.shutdown(); await good.shutdown() } }
      let room = try await typed.joinRoom(type: "cursors", id: "bad", initialPresence: Cursor(name: "T", x: 0))
      let seen = Watching(room.presenceUpdates())
      let goodRoom = try await good.joinRoom(type: "cursors", id: "bad", initialPresence: Cursor(name: "G", x: 1))
      let rawRoom = await raw.joinRoom(type: "cursors", id: "bad", initialPresence: ["name": 42, "x": "far"])
      try await waitFor(seen, "the bad peer is reported, the good one listed") {
        $0.error?.kind == .presenceDecoding && $0.peers.map(\.data) == [Cursor(name: "G", x: 1)]
      }
      let report = seen.values.last!
      #expect(report.error?.message.contains("does not decode as Cursor") == true)

      // Frames no server should send: bad edits, a snapshot that is not an object, garbage.
      let roomID = "\"room-id\":\"bad\""
      transport.inject("{\"op\":\"patch-presence\",\(roomID),\"edits\":[[\"not-a-path\",\"r\",1],[[\"x\",0,\"y\"],\"r\",1],[[], \"?\"]]}")
      transport.inject("{\"op\":\"patch-presence\",\(roomID),\"edits\":7}")
      transport.inject("{\"op\":\"refresh-presence\",\(roomID),\"data\":[1,2]}")
      transport.inject("{\"op\":\"server-broadcast\",\(roomID),\"topic\":\"emoji\",\"data\":5}")
      transport.inject("{\"op\":\"join-room-ok\"}")

      // Still working: the raw peer fixes its presence and is listed.
      try await rawRoom.setPresence(["name": "R", "x": 3])
      try await waitFor(seen, "the fixed peer is listed") { $0.peers.count == 2 }
      #expect(Set(seen.values.last!.peers.map(\.data.name)) == ["G", "R"])
      #expect(await typed.status == .authenticated)
      withExtendedLifetime(goodRoom) {}
    }
  }

  @Test("Presence edits: add, replace, remove, array insert, at any depth")
  func presenceEdits() throws {
    var members: JSON = ["s1": ["data": ["tags": ["a"], "pos": ["x": 1]]]]
    let edits: [JSON] = [
      [["s1", "data", "pos", "x"], "r", 2],
      [["s1", "data", "tags", 0], "+", "z"],
      [["s2"], "+", ["data": [:]]],
      [["s1", "data", "tags", 1], "-"],
    ]
    for edit in edits { try PresenceEdits.apply(edit, to: &members) }
    #expect(members == ["s1": ["data": ["tags": ["z"], "pos": ["x": 2]]], "s2": ["data": [:]]])

    // An edit that does not apply changes nothing, however deep it fails.
    let before = members
    let bad: [JSON] = [
      [["s1", "data", "tags", 5], "r", 1], [["s1", "data", "pos", "x", "deeper"], "r", 1],
      [["s3", "data", 0], "+", 1], [["s1"], "?", 1], [["s1"], "r"], "nonsense",
    ]
    for edit in bad {
      #expect(throws: PresenceEdits.Malformed.self) { try PresenceEdits.apply(edit, to: &members) }
      #expect(members == before)
    }
  }
}

/// Waits until the latest value of `watching` matches.
func waitFor<Element: Sendable>(
  _ watching: Watching<Element>, timeout: Duration = backstop, _ what: String, _ predicate: @escaping @Sendable (Element) -> Bool
) async throws {
  try await eventually(what, timeout: timeout, detail: { "last: \(watching.values.last.map { "\($0)" } ?? "none")" }) {
    watching.values.last.map(predicate) ?? false
  }
}
