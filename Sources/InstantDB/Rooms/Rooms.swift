import Foundation
import InstantCore
import OrderedCollections

/// Every room this client wants, as a state machine (docs/protocol.md, "Presence and rooms"):
/// join on the first handle and leave on the last, presence from `refresh-presence` snapshots and
/// `patch-presence` edits, topics through `client-broadcast` / `server-broadcast`, and a re-join of
/// every room after a reconnect.
///
/// Each event changes the rooms and returns what its owner (the reactor) must do; nothing here
/// touches a socket or a stream, so every path is testable alone (`RoomsTests`).
struct Rooms {
  enum Action: Equatable {
    /// Send this message (with a fresh client event id).
    case send(ClientMessage.Body)
    /// The room's snapshot changed: give it to its presence watchers.
    case notify(roomID: String)
    /// A topic event for the room's watchers of `event.topic`.
    case deliver(roomID: String, TopicEvent<JSON>)
    /// The last handle left: finish the room's streams.
    case finish(roomID: String)
    /// Something from the server that does not apply; log it.
    case skipped(String)
  }

  private(set) var byID: [String: RoomState] = [:]

  subscript(id: String) -> RoomState? { byID[id] }

  // MARK: From the handles

  /// A handle wants the room; joins it on the first (at once when the socket is authenticated).
  mutating func want(type: String, id: String, handle: UUID, initialPresence: JSON, isAuthenticated: Bool) -> [Action] {
    var actions: [Action] = []
    if var room = byID[id] {
      if Self.isEmptyPresence(room.presence) && !Self.isEmptyPresence(initialPresence) {
        // Joined first by a handle without presence (a topic): as in the reference, the first
        // initial presence is this session's presence; peers would otherwise see `{}` for good.
        actions = setPresence(id, initialPresence)
        room = byID[id] ?? room
      }
      room.handles.insert(handle)
      byID[id] = room
    } else {
      var room = RoomState(id: id, type: type, presence: initialPresence)
      room.handles.insert(handle)
      byID[id] = room
      if isAuthenticated { actions.append(.send(join(room))) }
    }
    return actions
  }

  static func isEmptyPresence(_ presence: JSON) -> Bool {
    presence == .null || presence == .object([:])
  }

  /// A handle is done with the room; the last one leaves it.
  mutating func release(_ id: String, handle: UUID) -> [Action] {
    guard var room = byID[id], room.handles.remove(handle) != nil else { return [] }
    guard room.handles.isEmpty else {
      byID[id] = room
      return []
    }
    byID[id] = nil
    // Not yet joined: the `join-room-ok` for a room nobody wants any more sends the leave.
    return room.isConnected ? [.finish(roomID: id), .send(.leaveRoom(roomID: id))] : [.finish(roomID: id)]
  }

  mutating func setPresence(_ id: String, _ data: JSON) -> [Action] {
    guard var room = byID[id], room.presence != data else { return [] }
    room.presence = data
    byID[id] = room
    return room.isConnected ? [.send(.setPresence(roomID: id, data: data)), .notify(roomID: id)] : [.notify(roomID: id)]
  }

  /// A broadcast: sent when the room is joined, else queued until it is.
  mutating func publish(_ id: String, topic: String, data: JSON) -> [Action] {
    guard var room = byID[id] else { return [] }
    guard room.isConnected else {
      room.queued.append(.init(topic: topic, data: data))
      byID[id] = room
      return []
    }
    return [.send(broadcast(room, topic: topic, data: data))]
  }

  /// Every room, for shutdown: their streams finish and nothing is sent.
  mutating func removeAll() -> [Action] {
    defer { byID = [:] }
    return byID.keys.sorted().map { .finish(roomID: $0) }
  }

  // MARK: Connection events

  /// After `init-ok`: every room is joined again with its current presence.
  mutating func authenticated() -> [Action] {
    byID.keys.sorted().compactMap { id in
      byID[id]?.isConnected = false
      return byID[id].map { .send(join($0)) }
    }
  }

  /// The socket closed: no room is joined any more. Peers stay as last seen (marked loading)
  /// until the server's snapshot after the re-join, as the reference does.
  mutating func socketClosed() -> [Action] {
    byID.keys.sorted().compactMap { id in
      guard byID[id]?.isConnected == true else { return nil }
      byID[id]?.isConnected = false
      return .notify(roomID: id)
    }
  }

  /// An attempt to connect failed: the server cannot be reached, so it cannot say who left
  /// meanwhile (a server that stopped takes its rooms with it). Peers last seen are dropped; a
  /// socket that closes and reconnects at once keeps them until the server's snapshot.
  mutating func serverUnreachable() -> [Action] {
    byID.keys.sorted().compactMap { id in
      guard let room = byID[id], room.members != .object([:]) || room.isConnected else { return nil }
      byID[id]?.members = .object([:])
      byID[id]?.isConnected = false
      return .notify(roomID: id)
    }
  }

  // MARK: From the server

  /// A room message; `sessionID` is this session's, whose own presence is kept locally.
  mutating func receive(_ message: ServerMessage, sessionID: String?) -> [Action] {
    let id: String
    switch message {
    case let .joinRoomOK(roomID, _), let .joinRoomError(roomID, _), let .refreshPresence(roomID, _),
      let .patchPresence(roomID, _), let .serverBroadcast(roomID, _, _):
      id = roomID
    default:
      return []
    }
    guard var room = byID[id] else {
      if case .joinRoomOK = message { return [.send(.leaveRoom(roomID: id))] }
      return []
    }
    var actions: [Action] = []
    switch message {
    case .joinRoomOK:
      room.isConnected = true
      room.error = nil
      // As the reference: the current presence again (the server keeps a member's old data on a
      // repeated join), then every broadcast queued while not joined.
      actions.append(.send(.setPresence(roomID: id, data: room.presence)))
      actions += room.queued.map { .send(broadcast(room, topic: $0.topic, data: $0.data)) }
      room.queued = []
      actions.append(.notify(roomID: id))
    case let .joinRoomError(_, error):
      // The refusal's type and hint are kept with its message, as for an `error` frame.
      room.error = InstantClientError(error, kind: .roomRejected)
      actions.append(.notify(roomID: id))
    case let .refreshPresence(_, data):
      // As the reference: any presence push or broadcast for a room means the session is in it.
      room.isConnected = true
      let members = Self.withoutSession(data, sessionID)
      if members != room.members {
        room.members = members
        actions.append(.notify(roomID: id))
      }
    case let .patchPresence(_, edits):
      room.isConnected = true
      actions += Self.apply(edits.value.arrayValue ?? [], to: &room, sessionID: sessionID)
    case let .serverBroadcast(_, topic, envelope):
      room.isConnected = true
      if let topic = topic.stringValue, let peerID = envelope["peer-id"]?.stringValue {
        let event = TopicEvent(
          topic: topic, peerID: peerID, userID: envelope["user"]?["id"]?.stringValue, data: envelope["data"] ?? .null)
        actions.append(.deliver(roomID: id, event))
      } else {
        actions.append(.skipped("a server-broadcast without topic, data or peer-id"))
      }
    default:
      break
    }
    byID[id] = room
    return actions
  }

  /// The server refused a room operation: that room's error.
  mutating func refused(_ roomID: String?, _ error: InstantClientError) -> [Action] {
    guard let roomID, byID[roomID] != nil else { return [] }
    byID[roomID]?.error = error
    return [.notify(roomID: roomID)]
  }

  // MARK: Parts

  private func join(_ room: RoomState) -> ClientMessage.Body {
    .joinRoom(roomID: room.id, roomType: room.type, data: room.presence)
  }

  private func broadcast(_ room: RoomState, topic: String, data: JSON) -> ClientMessage.Body {
    .clientBroadcast(roomID: room.id, roomType: room.type, topic: .string(topic), data: data)
  }

  private static func withoutSession(_ members: JSON, _ sessionID: String?) -> JSON {
    guard let sessionID, case var .object(o) = members else { return members }
    o.removeValue(forKey: sessionID)
    return .object(o)
  }

  /// Applies `patch-presence` edits in place, skipping those about this session (its own presence
  /// is kept locally) and those that do not apply.
  private static func apply(_ edits: [JSON], to room: inout RoomState, sessionID: String?) -> [Action] {
    var actions: [Action] = []
    var changed = false
    for edit in edits {
      if let sessionID, edit[0]?[0]?.stringValue == sessionID { continue }
      do {
        try PresenceEdits.apply(edit, to: &room.members)
        changed = true
      } catch {
        actions.append(.skipped("a presence edit that does not apply: \(error)"))
      }
    }
    guard changed else { return actions }
    // An edit of the whole map (an empty path) can bring this session back, or replace the map.
    room.members = room.members.objectValue != nil ? withoutSession(room.members, sessionID) : .object([:])
    return actions + [.notify(roomID: room.id)]
  }
}
