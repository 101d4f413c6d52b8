import OrderedCollections

/// A message a client sends the server (docs/protocol.md, "Messages"), read and written by both:
/// the client encodes it, instant-local decodes it with the reference server's errors.
///
/// `q` and `tx-steps` stay JSON: an InstaQL query and tx-steps have their own readers
/// (the store's query and transaction), which report their own errors.
public struct ClientMessage: Sendable, Equatable {
  /// Echoed in the server's reply; a string from every client (kept as sent, whatever it is).
  public var clientEventID: ClientEventID
  public var body: Body

  public enum Body: Sendable, Equatable {
    /// Opens the session for an app; `versions` names the client and its protocol features.
    case initialize(appID: String, refreshToken: String?, versions: JSON)
    /// `q` is `null` when the message has none (refused by the server with the reference's words).
    case addQuery(q: JSON)
    case removeQuery(q: JSON)
    /// `created` and `order` are the reference client's: when the write was made, its rank.
    case transact(txSteps: JSON, created: Double?, order: Int?)
    case joinRoom(roomID: String, roomType: String?, data: JSON?)
    case leaveRoom(roomID: String)
    case setPresence(roomID: String, data: JSON?)
    case clientBroadcast(roomID: String, roomType: String?, topic: JSON, data: JSON)
  }

  public init(clientEventID: String, _ body: Body) {
    self.clientEventID = ClientEventID(clientEventID)
    self.body = body
  }

  public var op: ClientOp {
    switch body {
    case .initialize: .initialize
    case .addQuery: .addQuery
    case .removeQuery: .removeQuery
    case .transact: .transact
    case .joinRoom: .joinRoom
    case .leaveRoom: .leaveRoom
    case .setPresence: .setPresence
    case .clientBroadcast: .clientBroadcast
    }
  }

  /// The op of `frame`, or the reference's `Invalid op` error.
  public static func op(of frame: JSON) throws(ServerError) -> ClientOp {
    guard case .object = frame, let name = frame["op"]?.stringValue else { throw .invalidOp(frame["op"] ?? .null) }
    guard let op = ClientOp(rawValue: name) else { throw .invalidOp(.string(name)) }
    return op
  }

  /// Reads a frame, refusing a missing or malformed parameter with the reference's error. `op`
  /// is the frame's op when the caller has read it already (``op(of:)``).
  public init(frame: JSON, op known: ClientOp? = nil) throws(ServerError) {
    clientEventID = ClientEventID(json: frame["client-event-id"] ?? .null)
    let op: ClientOp
    if let known { op = known } else { op = try Self.op(of: frame) }
    switch op {
    case .initialize:
      guard let raw = frame["app-id"], raw != .null else { throw .paramMissing("app-id") }
      guard let appID = raw.stringValue else { throw .paramMalformed("app-id", input: raw) }
      let token = frame["refresh-token"] ?? .null
      guard token == .null || token.stringValue != nil else { throw .paramMalformed("refresh-token", input: token) }
      body = .initialize(appID: appID, refreshToken: token.stringValue, versions: frame["versions"] ?? .null)
    case .addQuery: body = .addQuery(q: frame["q"] ?? .null)
    case .removeQuery: body = .removeQuery(q: frame["q"] ?? .null)
    case .transact:
      body = .transact(
        txSteps: frame["tx-steps"] ?? .null, created: frame["created"]?.numberValue, order: frame["order"]?.intValue)
    case .joinRoom:
      body = .joinRoom(
        roomID: try Self.roomID(frame), roomType: frame["room-type"]?.stringValue, data: frame["data"])
    case .leaveRoom: body = .leaveRoom(roomID: try Self.roomID(frame))
    case .setPresence: body = .setPresence(roomID: try Self.roomID(frame), data: frame["data"])
    case .clientBroadcast:
      body = .clientBroadcast(
        roomID: try Self.roomID(frame), roomType: frame["roomType"]?.stringValue, topic: frame["topic"] ?? .null,
        data: frame["data"] ?? .null)
    }
  }

  private static func roomID(_ frame: JSON) throws(ServerError) -> String {
    guard let raw = frame["room-id"], raw != .null else { throw .paramMissing("room-id") }
    guard let roomID = raw.stringValue else { throw .paramMalformed("room-id", input: raw) }
    return roomID
  }

  /// The frame, with its members in the order the reference client writes them.
  public var frame: JSON {
    var o: JSONObject = ["op": .string(op.rawValue), "client-event-id": clientEventID.json]
    switch body {
    case let .initialize(appID, refreshToken, versions):
      o["app-id"] = .string(appID)
      o["versions"] = versions
      if let refreshToken { o["refresh-token"] = .string(refreshToken) }
    case let .addQuery(q), let .removeQuery(q):
      o["q"] = q
    case let .transact(txSteps, created, order):
      o["tx-steps"] = txSteps
      if let created { o["created"] = .number(created) }
      if let order { o["order"] = .number(Double(order)) }
    case let .joinRoom(roomID, roomType, data):
      if let roomType { o["room-type"] = .string(roomType) }
      o["room-id"] = .string(roomID)
      if let data { o["data"] = data }
    case let .leaveRoom(roomID):
      o["room-id"] = .string(roomID)
    case let .setPresence(roomID, data):
      o["room-id"] = .string(roomID)
      if let data { o["data"] = data }
    case let .clientBroadcast(roomID, roomType, topic, data):
      // `roomType`, camelCase, as the reference spells it here (docs/protocol.md, "Topics").
      o["room-id"] = .string(roomID)
      if let roomType { o["roomType"] = .string(roomType) }
      o["topic"] = topic
      o["data"] = data
    }
    return .object(o)
  }
}
