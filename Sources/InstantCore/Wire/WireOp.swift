/// The `op` of a message a client sends (docs/protocol.md, "Messages").
public enum ClientOp: String, Sendable, Hashable, CaseIterable {
  case initialize = "init"
  case addQuery = "add-query"
  case removeQuery = "remove-query"
  case transact
  case joinRoom = "join-room"
  case leaveRoom = "leave-room"
  case setPresence = "set-presence"
  case clientBroadcast = "client-broadcast"

  /// The ops that refer to a room: a refusal of one is that room's error.
  public var isRoomOp: Bool {
    switch self {
    case .joinRoom, .leaveRoom, .setPresence, .clientBroadcast: true
    case .initialize, .addQuery, .removeQuery, .transact: false
    }
  }
}

/// The `op` of a message the server sends (docs/protocol.md, "Messages").
public enum ServerOp: String, Sendable, Hashable, CaseIterable {
  case initOK = "init-ok"
  case addQueryOK = "add-query-ok"
  case addQueryExists = "add-query-exists"
  case removeQueryOK = "remove-query-ok"
  case refreshOK = "refresh-ok"
  case transactOK = "transact-ok"
  case error
  case joinRoomOK = "join-room-ok"
  case joinRoomError = "join-room-error"
  case leaveRoomOK = "leave-room-ok"
  case setPresenceOK = "set-presence-ok"
  case refreshPresence = "refresh-presence"
  case patchPresence = "patch-presence"
  case clientBroadcastOK = "client-broadcast-ok"
  case serverBroadcast = "server-broadcast"
  case appStatusChanged = "app-status-changed"
  /// The first event of an admin query stream (`POST /admin/subscribe-query`), never on a socket.
  case sseInit = "sse-init"
}
