import Foundation
import InstantCore
internal import OrderedCollections
import Testing

@testable import InstantDB

/// ``Rooms`` alone: each event's changes and the actions it asks for, without a socket.
@Suite struct RoomsMachineTests {
  let h1 = UUID()
  let h2 = UUID()

  @Test("A room is joined on its first handle once the socket is authenticated, and again after a reconnect")
  func joinAndRejoin() {
    var rooms = Rooms()
    #expect(rooms.want(type: "chat", id: "r", handle: h1, initialPresence: ["n": 1], isAuthenticated: false) == [])
    #expect(rooms.want(type: "chat", id: "r", handle: h2, initialPresence: ["n": 2], isAuthenticated: true) == [])
    #expect(rooms.authenticated() == [.send(.joinRoom(roomID: "r", roomType: "chat", data: ["n": 1]))])
    _ = rooms.receive(.joinRoomOK(roomID: "r", clientEventID: "e"), sessionID: "me")
    #expect(rooms["r"]?.isConnected == true)
    #expect(rooms.socketClosed() == [.notify(roomID: "r")])
    #expect(rooms["r"]?.isConnected == false)
    #expect(rooms.socketClosed() == [], "a room already marked disconnected is not notified again")
    #expect(rooms.authenticated() == [.send(.joinRoom(roomID: "r", roomType: "chat", data: ["n": 1]))])
  }

  @Test("A closed socket keeps the peers last seen; a server that cannot be reached drops them")
  func unreachableServerDropsPeers() {
    var rooms = Rooms()
    _ = rooms.want(type: "chat", id: "r", handle: h1, initialPresence: ["n": 1], isAuthenticated: true)
    _ = rooms.receive(.joinRoomOK(roomID: "r", clientEventID: "e"), sessionID: "me")
    let members: JSON = ["other": ["peer-id": "p", "data": ["n": 2]]]
    _ = rooms.receive(.refreshPresence(roomID: "r", data: members), sessionID: "me")
    #expect(rooms["r"]?.members == members)
    #expect(rooms.socketClosed() == [.notify(roomID: "r")])
    #expect(rooms["r"]?.members == members, "kept as last seen while the client reconnects")
    #expect(rooms.serverUnreachable() == [.notify(roomID: "r")])
    #expect(rooms["r"]?.members == .object([:]))
    #expect(rooms.serverUnreachable() == [], "nothing more to drop: no notification")
  }

  @Test("join-room-ok sends the presence again, then the broadcasts queued before it, in order")
  func joinFlushesQueue() {
    var rooms = Rooms()
    _ = rooms.want(type: "chat", id: "r", handle: h1, initialPresence: ["n": 1], isAuthenticated: true)
    #expect(rooms.publish("r", topic: "a", data: 1) == [])
    #expect(rooms.publish("r", topic: "b", data: 2) == [])
    #expect(rooms.receive(.joinRoomOK(roomID: "r", clientEventID: "e"), sessionID: "me") == [
      .send(.setPresence(roomID: "r", data: ["n": 1])),
      .send(.clientBroadcast(roomID: "r", roomType: "chat", topic: "a", data: 1)),
      .send(.clientBroadcast(roomID: "r", roomType: "chat", topic: "b", data: 2)),
      .notify(roomID: "r"),
    ])
    #expect(rooms.publish("r", topic: "c", data: 3) == [.send(.clientBroadcast(roomID: "r", roomType: "chat", topic: "c", data: 3))])
  }

  @Test("The last handle leaves (only a joined room sends leave-room); a late join-room-ok for it leaves")
  func release() {
    var rooms = Rooms()
    _ = rooms.want(type: "chat", id: "r", handle: h1, initialPresence: [:], isAuthenticated: true)
    _ = rooms.want(type: "chat", id: "r", handle: h2, initialPresence: [:], isAuthenticated: true)
    #expect(rooms.release("r", handle: h1) == [])
    #expect(rooms.release("r", handle: h2) == [.finish(roomID: "r")], "not joined yet: no leave")
    #expect(rooms.receive(.joinRoomOK(roomID: "r", clientEventID: "e"), sessionID: "me") == [.send(.leaveRoom(roomID: "r"))])

    _ = rooms.want(type: "chat", id: "s", handle: h1, initialPresence: [:], isAuthenticated: true)
    _ = rooms.receive(.joinRoomOK(roomID: "s", clientEventID: "e"), sessionID: "me")
    #expect(rooms.release("s", handle: h1) == [.finish(roomID: "s"), .send(.leaveRoom(roomID: "s"))])
    #expect(rooms.release("s", handle: h1) == [], "releasing twice does nothing")
  }

  @Test("A room first joined without presence takes the first presence a later handle brings")
  func firstPresenceWins() {
    var rooms = Rooms()
    _ = rooms.want(type: "chat", id: "r", handle: h1, initialPresence: [:], isAuthenticated: true)
    _ = rooms.receive(.joinRoomOK(roomID: "r", clientEventID: "e"), sessionID: "me")
    #expect(rooms.want(type: "chat", id: "r", handle: h2, initialPresence: ["n": 2], isAuthenticated: true) == [
      .send(.setPresence(roomID: "r", data: ["n": 2])), .notify(roomID: "r"),
    ])
    #expect(rooms.want(type: "chat", id: "r", handle: UUID(), initialPresence: ["n": 3], isAuthenticated: true) == [])
    #expect(rooms["r"]?.presence == ["n": 2])
    #expect(rooms["r"]?.handles.count == 3)
  }

  @Test("Members come from snapshots and patches, never with this session in them")
  func members() {
    var rooms = Rooms()
    _ = rooms.want(type: "chat", id: "r", handle: h1, initialPresence: [:], isAuthenticated: true)
    let snapshot: JSON = ["me": ["data": ["x": 0]], "p": ["data": ["x": 1]]]
    #expect(rooms.receive(.refreshPresence(roomID: "r", data: snapshot), sessionID: "me") == [.notify(roomID: "r")])
    #expect(rooms["r"]?.members == ["p": ["data": ["x": 1]]])
    #expect(rooms["r"]?.isConnected == true, "a presence push means the session is in the room")
    #expect(rooms.receive(.refreshPresence(roomID: "r", data: snapshot), sessionID: "me") == [], "no change, no notice")

    let edits: JSON = [[["p", "data", "x"], "r", 2], [["me", "data", "x"], "r", 9], [["q"], "+", ["data": [:]]]]
    #expect(rooms.receive(.patchPresence(roomID: "r", edits: .json(edits)), sessionID: "me") == [.notify(roomID: "r")])
    #expect(rooms["r"]?.members == ["p": ["data": ["x": 2]], "q": ["data": [:]]])

    // An edit of the whole map can bring this session back: it is taken out again.
    let whole: JSON = [[[], "r", ["me": [:], "z": [:]]]]
    _ = rooms.receive(.patchPresence(roomID: "r", edits: .json(whole)), sessionID: "me")
    #expect(rooms["r"]?.members == ["z": [:]])

    let bad: JSON = [[["z"], "?", 1]]
    #expect(rooms.receive(.patchPresence(roomID: "r", edits: .json(bad)), sessionID: "me").first.map {
      if case .skipped = $0 { true } else { false }
    } == true)
    #expect(rooms["r"]?.members == ["z": [:]], "an edit that does not apply changes nothing")
  }

  @Test("Broadcasts reach the room's topic watchers; refusals become the room's error")
  func broadcastsAndErrors() {
    var rooms = Rooms()
    _ = rooms.want(type: "chat", id: "r", handle: h1, initialPresence: [:], isAuthenticated: true)
    let envelope: JSON = ["peer-id": "p", "user": ["id": "u"], "data": ["e": "🎉"]]
    #expect(rooms.receive(.serverBroadcast(roomID: "r", topic: "emoji", data: envelope), sessionID: "me") == [
      .deliver(roomID: "r", TopicEvent(topic: "emoji", peerID: "p", userID: "u", data: ["e": "🎉"]))
    ])
    #expect(rooms.receive(.serverBroadcast(roomID: "elsewhere", topic: "emoji", data: envelope), sessionID: "me") == [])

    let refusal = ServerError(.permissionDenied, message: "no", hint: ["x": 1])
    #expect(rooms.receive(.joinRoomError(roomID: "r", error: refusal), sessionID: "me") == [.notify(roomID: "r")])
    #expect(rooms["r"]?.error?.serverType == .permissionDenied)
    _ = rooms.receive(.joinRoomOK(roomID: "r", clientEventID: "e"), sessionID: "me")
    #expect(rooms["r"]?.error == nil, "a join clears the refusal")
    #expect(rooms.refused("r", InstantClientError(refusal, kind: .roomRejected)) == [.notify(roomID: "r")])
    #expect(rooms.refused("gone", InstantClientError(refusal, kind: .roomRejected)) == [])
  }

  @Test("Shutdown finishes every room and sends nothing")
  func removeAll() {
    var rooms = Rooms()
    _ = rooms.want(type: "chat", id: "b", handle: h1, initialPresence: [:], isAuthenticated: true)
    _ = rooms.want(type: "chat", id: "a", handle: h1, initialPresence: [:], isAuthenticated: true)
    #expect(rooms.removeAll() == [.finish(roomID: "a"), .finish(roomID: "b")])
    #expect(rooms["a"] == nil)
  }
}
