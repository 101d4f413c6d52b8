import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

@Suite("rooms, presence and topics")
struct PresenceTests {
  @Test func joinSetPresenceBroadcastLeave() async throws {
    try await withInstantLocal { server in
      let (a, initA) = try await server.connect()
      let (b, initB) = try await server.connect()
      let sidA = try #require(initA["session-id"]?.stringValue)
      let sidB = try #require(initB["session-id"]?.stringValue)

      let joinA = try await a.request(["op": "join-room", "room-type": "chat", "room-id": "r1", "data": ["name": "Al"]])
      #expect(joinA["op"] == "join-room-ok")
      #expect(joinA["room-id"] == "r1")
      let snapA = try await a.next(op: "refresh-presence")
      #expect(snapA["data"]?[sidA]?["data"] == ["name": "Al"])
      #expect(snapA["data"]?[sidA]?["peer-id"] == .string(sidA))
      #expect(snapA["data"]?[sidA]?["user"] == .null)

      _ = try await b.request(["op": "join-room", "room-type": "chat", "room-id": "r1"])
      let snapB = try await b.next(op: "refresh-presence")
      #expect(snapB["data"]?[sidA]?["data"] == ["name": "Al"])
      #expect(snapB["data"]?[sidB]?["data"] == [:])
      let patchA = try await a.next(op: "patch-presence")
      #expect(patchA["edits"]?[0]?[0] == [.string(sidB)])
      #expect(patchA["edits"]?[0]?[1] == "+")

      let set = try await b.request(["op": "set-presence", "room-id": "r1", "data": ["name": "Bo"]])
      #expect(set["op"] == "set-presence-ok")
      let patch2 = try await a.next(op: "patch-presence")
      #expect(patch2["edits"]?[0]?[1] == "r")
      #expect(patch2["edits"]?[0]?[2]?["data"] == ["name": "Bo"])
      _ = try await b.next(op: "patch-presence")

      let sent = try await a.request(["op": "client-broadcast", "room-id": "r1", "roomType": "chat", "topic": "emoji", "data": ["e": "🔥"]])
      #expect(sent["op"] == "client-broadcast-ok")
      let heard = try await b.next(op: "server-broadcast")
      #expect(heard["room-id"] == "r1")
      #expect(heard["topic"] == "emoji")
      #expect(heard["data"] == ["peer-id": .string(sidA), "user": nil, "data": ["e": "🔥"]])
      #expect(await a.collect(for: .milliseconds(150)).allSatisfy { $0["op"] != "server-broadcast" })

      let left = try await b.request(["op": "leave-room", "room-id": "r1"])
      #expect(left["op"] == "leave-room-ok")
      let patch3 = try await a.next(op: "patch-presence")
      #expect(patch3["edits"] == JSON.array([[.string(sidB)], "-"]).asEdits)
      let leftAgain = try await b.request(["op": "leave-room", "room-id": "r1"])
      #expect(leftAgain["op"] == "leave-room-ok")

      let notMember = try await b.request(["op": "set-presence", "room-id": "r1", "data": [:]])
      #expect(notMember["type"] == "validation-failed")
      #expect(notMember["message"] == "Validation failed for room: You have not entered this room yet.")
      let notMemberBroadcast = try await b.request(["op": "client-broadcast", "room-id": "r1", "topic": "t", "data": [:]])
      #expect(notMemberBroadcast["type"] == "validation-failed")
      await a.close()
      await b.close()
    }
  }

  @Test func legacySessionsGetSnapshotsAndCloseLeavesRooms() async throws {
    try await withInstantLocal { server in
      let (legacy, initL) = try await server.connect(versions: ["@instantdb/core": "0.17.5"])
      let (b, initB) = try await server.connect()
      let sidL = try #require(initL["session-id"]?.stringValue)
      let sidB = try #require(initB["session-id"]?.stringValue)
      _ = try await legacy.request(["op": "join-room", "room-id": "r"])
      _ = try await legacy.next(op: "refresh-presence")
      _ = try await b.request(["op": "join-room", "room-id": "r"])
      let snapshot = try await legacy.next { $0["op"] == "refresh-presence" || $0["op"] == "patch-presence" }
      #expect(snapshot["op"] == "refresh-presence")
      #expect(snapshot["data"]?[sidB] != nil)
      await legacy.close()
      let patch = try await b.next(op: "patch-presence")
      #expect(patch["edits"] == JSON.array([[.string(sidL)], "-"]).asEdits)
      await b.close()
    }
  }

  @Test func roomIDMustBeAString() async throws {
    try await withInstantLocal { server in
      let (a, _) = try await server.connect()
      let bad = try await a.request(["op": "join-room", "room-id": 42])
      #expect(bad["type"] == "param-malformed")
      #expect(bad["hint"]?["in"] == ["room-id"])
      let missing = try await a.request(["op": "join-room"])
      #expect(missing["type"] == "param-missing")
      let ok = try await a.request(["op": "join-room", "room-id": "fine"])
      #expect(ok["op"] == "join-room-ok")
      await a.close()
    }
  }
}

extension JSON {
  /// Wraps one edit in an edit list.
  fileprivate var asEdits: JSON { [self] }
}
