import Foundation
import InstantCore
import OrderedCollections

/// One room this client wants to be in: who asked for it, its own presence and the server's
/// member map (other sessions only). Its watchers live with the reactor (``RoomWatchers``).
struct RoomState: Equatable {
  let id: String
  let type: String
  /// The open ``InstantRoom`` handles; the room is left when the last one goes.
  var handles: Set<UUID> = []
  /// This session's presence, sent with `join-room` and `set-presence`.
  var presence: JSON
  /// The server's members (`session-id → {peer-id, user, data}`) minus this session.
  var members: JSON = .object([:])
  /// Whether `join-room-ok` arrived on the current socket.
  var isConnected = false
  /// Broadcasts published before `join-room-ok`, sent in order once it arrives.
  var queued: [QueuedBroadcast] = []
  var error: InstantClientError?

  struct QueuedBroadcast: Equatable {
    var topic: String
    var data: JSON
  }

  init(id: String, type: String, presence: JSON) {
    self.id = id
    self.type = type
    self.presence = presence
  }

  /// The room as it is now, in O(1): readers turn it into a ``RoomPresence`` only for the
  /// snapshots they actually read.
  func snapshot(sessionID: String?) -> RoomSnapshot {
    RoomSnapshot(user: presence, peerID: sessionID, members: members, isLoading: !isConnected, error: error)
  }
}

/// The streams that watch one room.
struct RoomWatchers {
  var presence = Watchers<RoomSnapshot>()
  var topics: [String: Watchers<TopicEvent<JSON>>] = [:]

  mutating func remove(_ id: UUID) {
    presence.remove(id)
    for topic in topics.keys { topics[topic]?.remove(id) }
  }

  mutating func finishAll() {
    presence.finishAll()
    for topic in topics.keys { topics[topic]?.finishAll() }
  }
}
