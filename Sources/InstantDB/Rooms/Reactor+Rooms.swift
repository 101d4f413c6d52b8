import Foundation
import InstantCore
import OrderedCollections
import Logging

/// Rooms, presence and topics (docs/protocol.md, "Presence and rooms"): join on the first handle, leave on the last,
/// presence from `refresh-presence` snapshots and `patch-presence` edits, topics through
/// `client-broadcast` / `server-broadcast`, and a re-join of every room after a reconnect.
extension Reactor {
  // MARK: From the handles

  func joinRoom(type: String, id: String, handle: UUID, initialPresence: JSON) {
    guard !isShutDown else { return }
    if rooms[id] == nil {
      rooms[id] = RoomState(id: id, type: type, presence: initialPresence)
      if status == .authenticated { sendJoin(id) }
    } else if Self.isEmptyPresence(rooms[id]!.presence) && !Self.isEmptyPresence(initialPresence) {
      // Joined first by a handle without presence (a topic): as in the reference, the first
      // initial presence is this session's presence; peers would otherwise see `{}` for good.
      setPresence(id, initialPresence)
    }
    rooms[id]!.handles.insert(handle)
  }

  static func isEmptyPresence(_ presence: JSON) -> Bool {
    presence == .null || presence == .object([:])
  }

  func releaseRoom(_ id: String, handle: UUID) {
    guard var room = rooms[id], room.handles.remove(handle) != nil else { return }
    guard room.handles.isEmpty else {
      rooms[id] = room
      return
    }
    rooms[id] = nil
    room.finishAll()
    // Not yet joined: the `join-room-ok` for a room nobody wants any more sends the leave.
    if room.isConnected { send(ClientMessage(clientEventID: InstantID.make(), .leaveRoom(roomID: id))) }
  }

  func setPresence(_ roomID: String, _ data: JSON) {
    guard rooms[roomID] != nil, rooms[roomID]!.presence != data else { return }
    rooms[roomID]!.presence = data
    if rooms[roomID]!.isConnected { sendPresence(roomID) }
    notifyPresence(roomID)
  }

  func publish(_ roomID: String, topic: String, data: JSON) {
    guard let room = rooms[roomID] else { return }
    if room.isConnected {
      sendBroadcast(room, topic: topic, data: data)
    } else {
      rooms[roomID]!.queued.append((topic, data))
    }
  }

  func roomPresence(_ roomID: String) -> RoomSnapshot? {
    rooms[roomID]?.snapshot(sessionID: sessionID)
  }

  func watchPresence(_ roomID: String, _ id: UUID, _ continuation: AsyncStream<RoomSnapshot>.Continuation) {
    guard rooms[roomID] != nil else { return continuation.finish() }
    rooms[roomID]!.presenceWatchers.add(id, continuation)
    continuation.yield(rooms[roomID]!.snapshot(sessionID: sessionID))
  }

  func watchTopic(_ roomID: String, topic: String, _ id: UUID, _ continuation: AsyncStream<TopicEvent<JSON>>.Continuation) {
    guard rooms[roomID] != nil else { return continuation.finish() }
    rooms[roomID]!.topicWatchers[topic, default: Watchers()].add(id, continuation)
  }

  func unwatchRoom(_ roomID: String, _ id: UUID) {
    guard rooms[roomID] != nil else { return }
    rooms[roomID]!.presenceWatchers.remove(id)
    for topic in rooms[roomID]!.topicWatchers.keys { rooms[roomID]!.topicWatchers[topic]!.remove(id) }
  }

  // MARK: Connection events

  /// After `init-ok`: every room is joined again with its current presence (docs/protocol.md, "Offline replay").
  func rejoinRooms() {
    for id in rooms.keys.sorted() {
      rooms[id]!.isConnected = false
      sendJoin(id)
    }
  }

  /// The socket closed: no room is joined any more. Peers stay as last seen (marked loading)
  /// until the server's snapshot after the re-join, as the reference does.
  func roomsSocketClosed() {
    for id in rooms.keys where rooms[id]!.isConnected {
      rooms[id]!.isConnected = false
      notifyPresence(id)
    }
  }

  func finishRooms() {
    for id in rooms.keys { rooms[id]!.finishAll() }
    rooms = [:]
  }

  // MARK: From the server

  /// Handles `join-room-ok`, `join-room-error`, `refresh-presence`, `patch-presence` and
  /// `server-broadcast`.
  func handleRoomMessage(_ message: ServerMessage) {
    let roomID: String
    switch message {
    case let .joinRoomOK(id, _), let .joinRoomError(id, _), let .refreshPresence(id, _), let .patchPresence(id, _),
      let .serverBroadcast(id, _, _):
      roomID = id
    default: return
    }
    guard rooms[roomID] != nil else {
      if case .joinRoomOK = message { send(ClientMessage(clientEventID: InstantID.make(), .leaveRoom(roomID: roomID))) }
      return
    }
    switch message {
    case .joinRoomOK:
      joined(roomID)
    case let .joinRoomError(_, error):
      // The refusal's type and hint are kept with its message, as for an `error` frame.
      rooms[roomID]!.error = InstantClientError(error, kind: .roomRejected)
      notifyPresence(roomID)
    case let .refreshPresence(_, data):
      // As the reference: any presence push or broadcast for a room means the session is in it.
      rooms[roomID]!.isConnected = true
      setMembers(roomID, data)
    case let .patchPresence(_, edits):
      rooms[roomID]!.isConnected = true
      applyEdits(roomID, edits.value.arrayValue ?? [])
    case let .serverBroadcast(_, topic, data):
      rooms[roomID]!.isConnected = true
      receiveBroadcast(roomID, topic: topic, envelope: data)
    default:
      break
    }
  }

  /// An `error` about a room operation (`op`) is that room's error.
  func handleRoomError(_ serverError: ServerError, op: ClientOp, roomID: String?) {
    let error = InstantClientError(serverError, kind: .roomRejected)
    logger.error("the server refused \(op.rawValue): \(error)")
    if let roomID, rooms[roomID] != nil {
      rooms[roomID]!.error = error
      notifyPresence(roomID)
    }
  }

  private func joined(_ roomID: String) {
    rooms[roomID]!.isConnected = true
    rooms[roomID]!.error = nil
    // As the reference: the current presence again (the server keeps a member's old data on a
    // repeated join), then every broadcast queued while not joined.
    sendPresence(roomID)
    let queued = rooms[roomID]!.queued
    rooms[roomID]!.queued = []
    for event in queued { sendBroadcast(rooms[roomID]!, topic: event.topic, data: event.data) }
    notifyPresence(roomID)
  }

  private func setMembers(_ roomID: String, _ members: JSON) {
    var members = members
    if let sessionID, case var .object(o) = members {
      o.removeValue(forKey: sessionID)
      members = .object(o)
    }
    guard members != rooms[roomID]!.members else { return }
    rooms[roomID]!.members = members
    notifyPresence(roomID)
  }

  /// Applies `patch-presence` edits in place, skipping those about this session (its own presence
  /// is kept locally) and those that do not apply.
  private func applyEdits(_ roomID: String, _ edits: [JSON]) {
    var changed = false
    for edit in edits {
      if let sessionID, edit[0]?[0]?.stringValue == sessionID { continue }
      do {
        try PresenceEdits.apply(edit, to: &rooms[roomID]!.members)
        changed = true
      } catch {
        logger.error("skipped a presence edit that does not apply: \(error)")
      }
    }
    guard changed else { return }
    // An edit of the whole map (an empty path) can bring this session back, or replace the map.
    if case var .object(o) = rooms[roomID]!.members {
      if let sessionID, o[sessionID] != nil {
        o.removeValue(forKey: sessionID)
        rooms[roomID]!.members = .object(o)
      }
    } else {
      rooms[roomID]!.members = .object([:])
    }
    notifyPresence(roomID)
  }

  private func receiveBroadcast(_ roomID: String, topic: JSON, envelope: JSON) {
    guard let topic = topic.stringValue, let peerID = envelope["peer-id"]?.stringValue else {
      logger.error("skipped a server-broadcast without topic, data or peer-id")
      return
    }
    let event = TopicEvent(
      topic: topic, peerID: peerID, userID: envelope["user"]?["id"]?.stringValue, data: envelope["data"] ?? .null)
    rooms[roomID]!.topicWatchers[topic]?.yield(event)
  }

  private func notifyPresence(_ roomID: String) {
    guard let room = rooms[roomID], !room.presenceWatchers.isEmpty else { return }
    room.presenceWatchers.yield(room.snapshot(sessionID: sessionID))
  }

  // MARK: Sending

  private func sendJoin(_ id: String) {
    let room = rooms[id]!
    send(ClientMessage(clientEventID: InstantID.make(), .joinRoom(roomID: id, roomType: room.type, data: room.presence)))
  }

  private func sendPresence(_ id: String) {
    send(ClientMessage(clientEventID: InstantID.make(), .setPresence(roomID: id, data: rooms[id]!.presence)))
  }

  private func sendBroadcast(_ room: RoomState, topic: String, data: JSON) {
    send(
      ClientMessage(
        clientEventID: InstantID.make(),
        .clientBroadcast(roomID: room.id, roomType: room.type, topic: .string(topic), data: data)))
  }
}
