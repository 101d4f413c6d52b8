import Foundation
import InstantCore
import Logging

/// The reactor's side of rooms: it feeds ``Rooms`` its events and performs the actions it returns
/// (sending, and yielding to the room's watchers).
extension Reactor {
  // MARK: From the handles

  func joinRoom(type: String, id: String, handle: UUID, initialPresence: JSON) {
    guard !isShutDown else { return }
    perform(
      rooms.want(type: type, id: id, handle: handle, initialPresence: initialPresence, isAuthenticated: status == .authenticated))
  }

  func releaseRoom(_ id: String, handle: UUID) {
    perform(rooms.release(id, handle: handle))
  }

  func setPresence(_ roomID: String, _ data: JSON) {
    perform(rooms.setPresence(roomID, data))
  }

  func publish(_ roomID: String, topic: String, data: JSON) {
    perform(rooms.publish(roomID, topic: topic, data: data))
  }

  func roomPresence(_ roomID: String) -> RoomSnapshot? {
    rooms[roomID]?.snapshot(sessionID: sessionID)
  }

  func watchPresence(_ roomID: String, _ id: UUID, _ continuation: AsyncStream<RoomSnapshot>.Continuation) {
    guard let room = rooms[roomID] else { return continuation.finish() }
    roomWatchers[roomID, default: RoomWatchers()].presence.add(id, continuation)
    continuation.yield(room.snapshot(sessionID: sessionID))
  }

  func watchTopic(_ roomID: String, topic: String, _ id: UUID, _ continuation: AsyncStream<TopicEvent<JSON>>.Continuation) {
    guard rooms[roomID] != nil else { return continuation.finish() }
    roomWatchers[roomID, default: RoomWatchers()].topics[topic, default: Watchers()].add(id, continuation)
  }

  func unwatchRoom(_ roomID: String, _ id: UUID) {
    roomWatchers[roomID]?.remove(id)
  }

  // MARK: Connection and server events

  func rejoinRooms() { perform(rooms.authenticated()) }

  func roomsSocketClosed() { perform(rooms.socketClosed()) }

  func roomsServerUnreachable() { perform(rooms.serverUnreachable()) }

  func finishRooms() { perform(rooms.removeAll()) }

  func handleRoomMessage(_ message: ServerMessage) {
    perform(rooms.receive(message, sessionID: sessionID))
  }

  /// An `error` about a room operation (`op`) is that room's error.
  func handleRoomError(_ serverError: ServerError, op: ClientOp, roomID: String?) {
    let error = InstantClientError(serverError, kind: .roomRejected)
    logger.error("the server refused \(op.rawValue): \(error)")
    perform(rooms.refused(roomID, error))
  }

  private func perform(_ actions: [Rooms.Action]) {
    for action in actions {
      switch action {
      case let .send(body):
        send(ClientMessage(clientEventID: InstantID.make(), body))
      case let .notify(roomID):
        guard let room = rooms[roomID], let watchers = roomWatchers[roomID], !watchers.presence.isEmpty else { continue }
        watchers.presence.yield(room.snapshot(sessionID: sessionID))
      case let .deliver(roomID, event):
        roomWatchers[roomID]?.topics[event.topic]?.yield(event)
      case let .finish(roomID):
        if var watchers = roomWatchers.removeValue(forKey: roomID) { watchers.finishAll() }
      case let .skipped(what):
        logger.error("skipped \(what)")
      }
    }
  }
}
