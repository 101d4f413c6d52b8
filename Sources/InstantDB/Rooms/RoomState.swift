import Foundation
import InstantCore
import OrderedCollections

/// One room this client wants to be in: who asked for it, its own presence, the server's member
/// map (other sessions only), and the streams that watch it.
struct RoomState {
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
  var queued: [(topic: String, data: JSON)] = []
  var error: InstantClientError?
  var presenceWatchers = Watchers<RoomSnapshot>()
  var topicWatchers: [String: Watchers<TopicEvent<JSON>>] = [:]

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

  mutating func finishAll() {
    presenceWatchers.finishAll()
    for key in topicWatchers.keys { topicWatchers[key]!.finishAll() }
  }
}
