import InstantCore

/// A room's state as the reactor hands it to presence streams (``RoomState/snapshot(sessionID:)``).
struct RoomSnapshot: Sendable {
  var user: JSON
  var peerID: String?
  /// `session-id → {peer-id, user, data}`, this session excluded.
  var members: JSON
  var isLoading: Bool
  var error: InstantClientError?
}
