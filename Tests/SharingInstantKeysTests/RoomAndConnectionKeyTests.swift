import InstantDB
import SharingInstant
import Testing

private struct Cursor: Codable, Sendable, Equatable {
  var name: String
  var x: Double = 0
}

@Suite("Presence and connection keys", .timeLimit(.minutes(1)))
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

  @Test("The connection key follows the client's status")
  func connection() async throws {
    try await KeysServer.withTwoClients { a, _ in
      let status = SharedReader(.instantConnection(client: a))
      try await eventually("authenticated") { status.wrappedValue == .authenticated }
      await a.setNetworkAvailable(false)
      try await eventually("not authenticated once offline") { status.wrappedValue != .authenticated }
    }
  }
}
