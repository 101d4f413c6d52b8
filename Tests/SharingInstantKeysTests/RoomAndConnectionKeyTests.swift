import Foundation
import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

private struct Cursor: Codable, Sendable, Equatable {
  var name: String
  var x: Double = 0
}

@Suite("Presence and connection keys", .timeLimit(.minutes(10)))
struct RoomAndConnectionKeyTests {
  @Test("withLock on the user's presence reaches the other client's presence key")
  func presence() async throws {
    try await KeysServer.withTwoClients { a, b in
      let room = RoomKey<Cursor>(type: "cursors")
      let ann = Shared(.instantPresence(room, roomId: "doc-1", initialPresence: Cursor(name: "Ann"), client: a))
      let bob = Shared(.instantPresence(room, roomId: "doc-1", initialPresence: Cursor(name: "Bob"), client: b))
      try await eventually("each sees the other") {
        ann.wrappedValue.peers.map(\.data.name) == ["Bob"] && bob.wrappedValue.peers.map(\.data.name) == ["Ann"]
      }

      ann.withLock { $0.user.x = 42 }
      try await ann.save()
      try await eventually("Bob sees Ann move") { bob.wrappedValue.peers.first?.data.x == 42 }
      #expect(ann.wrappedValue.user == Cursor(name: "Ann", x: 42))
      #expect(bob.wrappedValue.totalCount == 2)
    }
  }

  @Test("$channel.publish reaches the other client's topic key; events keep the newest maxEvents")
  func topic() async throws {
    try await KeysServer.withTwoClients { a, b in
      let topic = TopicKey<Cursor>(roomType: "cursors", topic: "ping")
      let sender = Shared(.instantTopic(topic, roomId: "doc-2", client: a))
      let receiver = Shared(.instantTopic(topic, roomId: "doc-2", maxEvents: 2, client: b))
      try await eventually("both connected") { sender.wrappedValue.isConnected && receiver.wrappedValue.isConnected }
      // Presence joins are confirmed per socket; keep publishing until b hears the first one.
      try await eventually("b hears a") {
        try await sender.publish(Cursor(name: "first"))
        try await Task.sleep(for: .milliseconds(50))
        return receiver.wrappedValue.latestEvent != nil
      }
      for name in ["x", "y", "z"] { try await sender.publish(Cursor(name: name)) }
      try await eventually("the newest two") { receiver.wrappedValue.events.map(\.data.name) == ["y", "z"] }
      #expect(sender.wrappedValue.events.isEmpty)
      receiver.withLock { $0.clearEvents() }
      #expect(receiver.wrappedValue.latestEvent == nil)
    }
  }

  @Test("The connection key follows the client's status")
  func connection() async throws {
    try await KeysServer.withTwoClients { a, _ in
      let status = SharedReader(.instantConnection(client: a))
      try await eventually("authenticated") { status.wrappedValue == .authenticated }
      await a.setNetworkAvailable(false)
      try await eventually("not authenticated once offline") { status.wrappedValue != .authenticated }
    }
  }

  @Test("The pending-writes key counts writes queued offline and empties once the server acknowledges them")
  func pendingWrites() async throws {
    try await KeysServer.withTwoClients { a, _ in
      let pending = SharedReader(.instantPendingWrites(client: a))
      let status = SharedReader(.instantConnection(client: a))
      try await eventually("authenticated") { status.wrappedValue == .authenticated }
      #expect(pending.wrappedValue.isEmpty)
      await a.setNetworkAvailable(false)
      _ = try await a.transact(.update("todos", .id(InstantID.make()), ["title": "one"]))
      _ = try await a.transact(.update("todos", .id(InstantID.make()), ["title": "two"]))
      try await eventually("two writes waiting") { pending.wrappedValue.count == 2 }
      #expect(pending.wrappedValue.unacknowledged.allSatisfy { $0.state == .enqueued })
      await a.setNetworkAvailable(true)
      try await eventually("acknowledged") { pending.wrappedValue.isEmpty }
    }
  }
}


/// A room update that reaches the key between a `withLock` edit and its `save` (forced with the
/// key's seams, on threads of their own), with the key as built and with the deliberately broken
/// one (`hooks.plain`) that the check must catch.
@Suite("Presence edits meeting room updates", .timeLimit(.minutes(10)))
struct PresenceInterleavingTests {
  @Test("A peer's move given between an edit and its save keeps the edit; the next edit starts from it", arguments: [false, true])
  func updateBetweenEditAndSave(plain: Bool) async throws {
    try await KeysServer.withTwoClients { a, b in
      let room = RoomKey<Cursor>(type: "cursors")
      let roomID = "doc-\(UUID().uuidString.prefix(8))"
      let key = InstantPresenceKey(roomType: room.type, roomID: roomID, initialPresence: Cursor(name: "Ann"), client: a)
      key.hooks.plain = plain
      let ann = Shared(wrappedValue: RoomPresence(user: Cursor(name: "Ann")), key)
      let bob = Shared(.instantPresence(room, roomId: roomID, initialPresence: Cursor(name: "Bob"), client: b))
      try await eventually("each sees the other, and ann's key holds its reference") {
        ann.wrappedValue.peers.map(\.data.name) == ["Bob"] && bob.wrappedValue.peers.map(\.data.name) == ["Ann"]
          && key.session.holdsReference
      }

      // Ann's edit reaches its save; Bob's move reaches Ann's key before that save goes on. (The
      // key as built saves the edit as it gives the move: that save is not held.)
      let saving = Gate()
      let bobMoved = Gate()
      key.hooks.willSave = { presence in
        guard presence.x == 1, saving.openOnce() else { return }
        saving.open()
        try? bobMoved.wait("Bob's move is given to Ann's key")
      }
      key.hooks.didGive = { update in if update.peers.first?.data.x == 7 { bobMoved.open() } }
      async let edit: Void = onThread { ann.withLock { $0.user.x = 1 } }
      try await onThread { try saving.wait("Ann's edit reaches its save") }
      bob.withLock { $0.user.x = 7 }
      try await bob.save()
      try await edit
      key.hooks.willSave = nil

      #expect(ann.wrappedValue.peers.first?.data.x == 7)
      if plain {
        #expect(ann.wrappedValue.user.x == 0, "the broken key puts the published presence back over the edit")
        return
      }
      #expect(ann.wrappedValue.user.x == 1, "the room's update left the edit in place")
      // The next edit starts from what Ann's @Shared holds: one step more.
      ann.withLock { $0.user.x += 1 }
      try await ann.save()
      try await eventually("Bob sees Ann two steps along") { bob.wrappedValue.peers.first?.data.x == 2 }
    }
  }
}
