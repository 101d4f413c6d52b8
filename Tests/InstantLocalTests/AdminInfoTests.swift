import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing
internal import OrderedCollections

/// `GET /admin/rooms/presence` (the admin SDK's `rooms.getPresence`) and `GET /admin/schema`,
/// with the app's admin token (docs/admin.md).
@Suite("Admin presence and schema")
struct AdminInfoTests {
  @Test("A room's members by session, a signed-in member with the whole user; the admin token only")
  func roomPresence() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Rooms")
      let (_, guest) = try await server.http("POST", "/runtime/auth/sign_in_guest", body: ["app-id": .string(app.id)])
      let userID = try #require(guest["user"]?["id"]?.stringValue)
      let token = try #require(guest["user"]?["refresh_token"]?.stringValue)
      let (a, initA) = try await server.connect(appID: app.id, refreshToken: token)
      let (b, initB) = try await server.connect(appID: app.id)
      let sidA = try #require(initA["session-id"]?.stringValue)
      let sidB = try #require(initB["session-id"]?.stringValue)
      _ = try await a.request(["op": "join-room", "room-type": "chat", "room-id": "lobby", "data": ["name": "Al"]])
      _ = try await b.request(["op": "join-room", "room-type": "chat", "room-id": "lobby", "data": ["name": "Bo"]])
      _ = try await b.request(["op": "set-presence", "room-id": "lobby", "data": ["name": "Bo", "typing": true]])

      let base = try #require(await server.baseURL)
      var http = try await FileHTTP(server)
      http.appID = app.id
      let admin = ["app-id": app.id, "authorization": "Bearer \(app.adminToken)"]
      func presence(_ query: [String: String], headers: [String: String]) async throws -> FileHTTP.Answer {
        try await FileHTTP.send("GET", try http.url("admin/rooms/presence", query), headers: headers)
      }

      let answer = try await presence(["room-type": "chat", "room-id": "lobby"], headers: admin)
      #expect(answer.status == 200)
      let sessions = try #require(answer.json["sessions"]?.objectValue)
      #expect(Set(sessions.keys) == [sidA, sidB])
      #expect(sessions[sidA]?["peer-id"] == .string(sidA))
      #expect(sessions[sidA]?["data"] == ["name": "Al"])
      #expect(sessions[sidA]?["user"]?["id"] == .string(userID))
      #expect(sessions[sidA]?["user"]?["isGuest"] == true)
      #expect(sessions[sidA]?["user"]?["refresh_token"] == nil)
      #expect(sessions[sidB]?["data"] == ["name": "Bo", "typing": true])
      #expect(sessions[sidB]?["user"] == .null)

      // Leaving shows at once; an empty or unknown room has no sessions.
      _ = try await b.request(["op": "leave-room", "room-id": "lobby"])
      let after = try await presence(["room-type": "chat", "room-id": "lobby"], headers: admin)
      #expect(after.json["sessions"]?.objectValue.map { Array($0.keys) } == [sidA])
      #expect(try await presence(["room-type": "chat", "room-id": "nobody"], headers: admin).json == ["sessions": [:]])

      // room-type is required; a token that is not the app's is refused.
      let missing = try await presence(["room-id": "lobby"], headers: admin)
      #expect(missing.status == 400)
      #expect(missing.json["type"] == "param-missing")
      var wrong = admin
      wrong["authorization"] = "Bearer \(UUID().uuidString.lowercased())"
      let refused = try await presence(["room-type": "chat", "room-id": "lobby"], headers: wrong)
      #expect(refused.status == 400)
      #expect(refused.json["sessions"] == nil)
      #expect(try await FileHTTP.send("GET", try http.url("admin/rooms/presence", ["room-type": "chat", "room-id": "lobby"])).status == 400)
      _ = base
      await a.close()
      await b.close()
    }
  }

  @Test("The app's attrs as {schema: {blobs, refs}}, refs keyed etype-label-target-reverse")
  func schema() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Schema")
      let (session, _) = try await server.connect(appID: app.id)
      let handle = UUID().uuidString.lowercased()
      let author = UUID().uuidString.lowercased()
      let steps: JSON = [
        ["add-attr", ["id": .string(handle), "forward-identity": [.string(UUID().uuidString.lowercased()), "profiles", "handle"], "value-type": "blob", "cardinality": "one", "unique?": true, "index?": true]],
        ["add-attr", [
          "id": .string(author), "forward-identity": [.string(UUID().uuidString.lowercased()), "posts", "author"],
          "reverse-identity": [.string(UUID().uuidString.lowercased()), "profiles", "posts"], "value-type": "ref", "cardinality": "one",
          "unique?": false, "index?": false,
        ]],
      ]
      let ok = try await session.request(["op": "transact", "tx-steps": steps])
      #expect(ok["op"] == "transact-ok")
      let base = try #require(await server.baseURL)
      let answer = try await FileHTTP.send(
        "GET", base.appendingPathComponent("admin/schema"), headers: ["app-id": app.id, "authorization": "Bearer \(app.adminToken)"])
      #expect(answer.status == 200)
      #expect(answer.json["schema"]?["blobs"]?["profiles"]?["handle"]?["id"] == .string(handle))
      #expect(answer.json["schema"]?["blobs"]?["profiles"]?["handle"]?["unique?"] == true)
      #expect(answer.json["schema"]?["refs"]?["posts-author-profiles-posts"]?["id"] == .string(author))
      #expect(answer.json["schema"]?["blobs"]?["posts"]?["author"] == nil)
      let refused = try await FileHTTP.send("GET", base.appendingPathComponent("admin/schema"), headers: ["app-id": app.id])
      #expect(refused.status == 400)
      await session.close()
    }
  }
}
