import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
public import InstantCore

/// Rooms as the server sees them (`db.rooms.getPresence` of `@instantdb/admin`).
extension InstantAdmin {
  /// Who is in a room now: each member by session id, as
  /// `{"peer-id", "user", "data"}` (`user` is the member's whole user, or `null` when they are
  /// signed out; `data` is their presence). Needs the admin token.
  ///
  /// - Parameters:
  ///   - roomType: the room's type, as the clients join it (`joinRoom(type:id:)`).
  ///   - roomID: the room's id.
  public func roomPresence(roomType: String, roomID: String) async throws(InstantAdminError) -> [String: JSON] {
    let answer = try await send(
      "GET", "admin/rooms/presence",
      query: [URLQueryItem(name: "room-type", value: roomType), URLQueryItem(name: "room-id", value: roomID)])
    guard let sessions = answer["sessions"]?.objectValue else {
      throw InstantAdminError(.badResponse, "the answer has no sessions")
    }
    return Dictionary(uniqueKeysWithValues: sessions.map { ($0.key, $0.value) })
  }
}
