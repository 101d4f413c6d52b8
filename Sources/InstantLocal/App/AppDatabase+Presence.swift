import InstantCore
import OrderedCollections

/// Rooms, presence and topics (docs/protocol.md, "Presence and rooms").
extension AppDatabase {
  /// Handles `join-room`: adds the session (keeping its data if it was already a member), queues
  /// `join-room-ok`, then the presence pass.
  func joinRoom(session id: String, roomID: String, data: JSON?, clientEventID: ClientEventID) {
    guard var record = sessions[id] else { return }
    let (old, new) = rooms.join(id, user: record.userRef, roomID: roomID, data: data)
    record.rooms.insert(roomID)
    sessions[id] = record
    record.sink.send(.joinRoomOK(roomID: roomID, clientEventID: clientEventID))
    presencePass(roomID: roomID, old: old, new: new)
  }

  /// `GET /admin/rooms/presence`: `{sessions: {session-id: {peer-id, instance-id, user, data}}}`,
  /// each member's `user` the whole user object (or `null` for a signed-out member), as the
  /// reference answers it.
  func roomPresence(_ roomID: String) -> JSON {
    var sessions: JSONObject = [:]
    for (id, member) in rooms.members(of: roomID) {
      var entry = member.objectValue ?? [:]
      if let userID = member["user"]?["id"]?.stringValue { entry["user"] = userObject(userID, refreshToken: nil) ?? .null }
      sessions[id] = .object(entry)
    }
    return ["sessions": .object(sessions)]
  }

  /// Handles `leave-room` (idempotent).
  func leaveRoom(session id: String, roomID: String, clientEventID: ClientEventID) {
    guard let sink = sessions[id]?.sink else { return }
    sessions[id]!.rooms.remove(roomID)
    sink.send(.leaveRoomOK(roomID: roomID, clientEventID: clientEventID))
    removeMember(id, from: roomID)
  }

  /// Handles `set-presence`: replaces the member's data wholesale.
  func setPresence(session id: String, roomID: String, data: JSON?, clientEventID: ClientEventID) throws(ServerError) {
    guard let sink = sessions[id]?.sink else { return }
    guard let (old, new) = rooms.setData(data, of: id, in: roomID) else { throw notInRoom(id, roomID) }
    sink.send(.setPresenceOK(roomID: roomID, clientEventID: clientEventID))
    presencePass(roomID: roomID, old: old, new: new)
  }

  /// Handles `client-broadcast`: `server-broadcast` to every other member, `client-broadcast-ok`
  /// to the sender.
  func broadcast(session id: String, roomID: String, topic: JSON, data: JSON, clientEventID: ClientEventID) throws(ServerError) {
    guard let record = sessions[id] else { return }
    guard rooms.contains(id, in: roomID) else { throw notInRoom(id, roomID) }
    let envelope: JSON = ["peer-id": .string(id), "user": record.userRef, "data": data]
    let text = ServerMessage.serverBroadcast(roomID: roomID, topic: topic, data: envelope).serialized()
    for peer in rooms.members(of: roomID).keys where peer != id { sessions[peer]?.sink.send(text: text) }
    record.sink.send(.clientBroadcastOK(roomID: roomID, topic: topic, data: envelope, clientEventID: clientEventID))
  }

  func removeMember(_ id: String, from roomID: String) {
    guard let (old, new) = rooms.remove(id, from: roomID) else { return }
    presencePass(roomID: roomID, old: old, new: new)
  }

  private func notInRoom(_ id: String, _ roomID: String) -> ServerError {
    .validation(
      "room", input: ["app-id": .string(appID), "room-id": .string(roomID), "session-id": .string(id)],
      ["You have not entered this room yet."])
  }

  /// Sends every member the change from `old` to `new`: a full `refresh-presence` to new members,
  /// to sessions without `patch-presence`, and when the room was empty; otherwise a coarse
  /// `patch-presence` (one whole-member edit per changed member); nothing when nothing changed.
  func presencePass(roomID: String, old: RoomMembers.Room, new: RoomMembers.Room) {
    let edits = RoomMembers.edits(from: old, to: new)
    guard !edits.isEmpty else { return }
    // Each text is built only if some member needs it: in a busy room almost every pass is a
    // patch, and the whole room's snapshot would be serialized for nobody.
    var refresh: String?
    var patch: String?
    for sid in new.keys {
      guard let record = sessions[sid] else { continue }
      if old.isEmpty || old[sid] == nil || !record.features.patchPresence {
        if refresh == nil {
          var snapshot: JSONObject = [:]
          for (sid, member) in new { snapshot[sid] = member }
          refresh = ServerMessage.refreshPresence(roomID: roomID, data: .object(snapshot)).serialized()
        }
        record.sink.sendPresenceSnapshot(roomID: roomID, text: refresh!)
      } else {
        if patch == nil { patch = edits.map { $0.serialized() }.joined(separator: ",") }
        record.sink.sendPresencePatch(roomID: roomID, edits: patch!)
      }
    }
  }
}
