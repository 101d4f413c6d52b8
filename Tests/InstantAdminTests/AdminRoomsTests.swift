import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import TestSupport
import Testing

/// `InstantAdmin.roomPresence` against a running instant-local, with a real client in the room.
@Suite("admin rooms")
struct AdminRoomsTests {
  @Test("The backend sees who is in a room and their presence; a wrong token is refused")
  func presence() async throws {
    try await AdminWorld.run { world in
      let db = InstantClient(
        appId: world.app.id, apiURI: world.baseURL,
        websocketURI: try #require(await world.server.webSocketURL), storage: .memory)
      let room = await db.joinRoom(type: "doc", id: "readme", initialPresence: ["cursor": 12] as JSON)
      try await eventually("the backend sees the member") {
        let sessions = (try? await world.admin.roomPresence(roomType: "doc", roomID: "readme")) ?? [:]
        return sessions.values.contains { $0["data"] == ["cursor": 12] && $0["user"] == .null }
      }
      #expect(try await world.admin.roomPresence(roomType: "doc", roomID: "other") == [:])
      await room.leave()
      try await eventually("and sees them leave") {
        (try? await world.admin.roomPresence(roomType: "doc", roomID: "readme"))?.isEmpty == true
      }
      let stranger = InstantAdmin(appID: world.app.id, adminToken: UUID().uuidString, apiURI: world.baseURL)
      await #expect(throws: InstantAdminError.self) { try await stranger.roomPresence(roomType: "doc", roomID: "readme") }
      await db.shutdown()
    }
  }
}
