import OrderedCollections

/// A message the server sends a client (docs/protocol.md, "Messages"), written by instant-local and
/// read by the client.
///
/// Large parts (a query result, the attr table, presence edits) are ``WireFragment``s, so the
/// server can serialise one result once for every session it goes to.
public enum ServerMessage: Sendable, Equatable {
  /// The session is open: its id, the app's attrs, the signed-in user (`auth.user`), the app's status.
  case initOK(sessionID: String?, clientEventID: ClientEventID, auth: JSON, appStatus: String?, attrs: WireFragment)
  case addQueryOK(q: WireFragment, result: WireFragment, processedTxID: Int?, clientEventID: ClientEventID)
  /// The session already subscribes to `q`; its results keep coming in `refresh-ok`.
  case addQueryExists(q: WireFragment, clientEventID: ClientEventID)
  case removeQueryOK(q: WireFragment, clientEventID: ClientEventID)
  /// New results of the session's queries after transactions up to `processedTxID`; `attrs` when
  /// the attr table changed (or the client asked for it every time).
  case refreshOK(processedTxID: Int?, computations: [Computation], attrs: WireFragment?)
  case transactOK(txID: Int, clientEventID: ClientEventID)
  /// A request refused; `originalEvent` is the request (or a part of it) with the session id.
  case error(ServerError, clientEventID: ClientEventID, originalEvent: OriginalEvent)
  case joinRoomOK(roomID: String, clientEventID: ClientEventID)
  case joinRoomError(roomID: String, error: ServerError)
  case leaveRoomOK(roomID: String, clientEventID: ClientEventID)
  case setPresenceOK(roomID: String, clientEventID: ClientEventID)
  /// Every member of the room, by session id.
  case refreshPresence(roomID: String, data: JSON)
  /// Edits to the members map since the last refresh or patch.
  case patchPresence(roomID: String, edits: WireFragment)
  case clientBroadcastOK(roomID: String, topic: JSON, data: JSON, clientEventID: ClientEventID)
  /// Another member's broadcast: `data` holds `peer-id`, `user` and the sender's `data`.
  case serverBroadcast(roomID: String, topic: JSON, data: JSON)
  case appStatusChanged(status: String)
  /// The first event of an admin query stream: the server instance and the stream's session.
  case sseInit(machineID: String, sessionID: String)

  /// One query's new result in a `refresh-ok`: the whole of it, or — for a session that
  /// negotiated `result-changes` — what changed since the session was last sent it.
  public struct Computation: Sendable, Equatable {
    public var q: WireFragment
    public var content: Content

    public enum Content: Sendable, Equatable {
      /// `instaql-result`: the whole result, as in `add-query-ok`.
      case result(WireFragment)
      /// `instaql-result-changes`: the triples that left and joined the result.
      case changes(ResultChanges)
    }

    public init(q: WireFragment, result: WireFragment) {
      self.init(q: q, content: .result(result))
    }

    public init(q: WireFragment, content: Content) {
      self.q = q
      self.content = content
    }

    /// The whole result, when that is what came.
    public var result: WireFragment? {
      if case let .result(result) = content { result } else { nil }
    }
  }

  public var op: ServerOp {
    switch self {
    case .initOK: .initOK
    case .addQueryOK: .addQueryOK
    case .addQueryExists: .addQueryExists
    case .removeQueryOK: .removeQueryOK
    case .refreshOK: .refreshOK
    case .transactOK: .transactOK
    case .error: .error
    case .joinRoomOK: .joinRoomOK
    case .joinRoomError: .joinRoomError
    case .leaveRoomOK: .leaveRoomOK
    case .setPresenceOK: .setPresenceOK
    case .refreshPresence: .refreshPresence
    case .patchPresence: .patchPresence
    case .clientBroadcastOK: .clientBroadcastOK
    case .serverBroadcast: .serverBroadcast
    case .appStatusChanged: .appStatusChanged
    case .sseInit: .sseInit
    }
  }
}

/// Why a frame from the server was not read as a ``ServerMessage``.
public struct ServerMessageError: Error, Sendable, Equatable, CustomStringConvertible {
  public var description: String

  public init(description: String) { self.description = description }
}

extension ServerMessage {
  /// Reads a frame. An op this library does not know is an error naming it; so is a known op
  /// without the members the client needs.
  public init(frame: JSON) throws(ServerMessageError) {
    func missing(_ what: String) -> ServerMessageError { ServerMessageError(description: "\(frame["op"]?.stringValue ?? "?") without \(what)") }
    guard let name = frame["op"]?.stringValue else { throw ServerMessageError(description: "a message without an op") }
    guard let op = ServerOp(rawValue: name) else { throw ServerMessageError(description: "an unknown op \(name)") }
    let eventID = ClientEventID(json: frame["client-event-id"] ?? .null)
    func roomID() throws(ServerMessageError) -> String {
      guard let id = frame["room-id"]?.stringValue else { throw missing("a room-id") }
      return id
    }
    switch op {
    case .initOK:
      self = .initOK(
        sessionID: frame["session-id"]?.stringValue, clientEventID: eventID, auth: frame["auth"] ?? .null,
        appStatus: frame["app-status"]?["status"]?.stringValue, attrs: .json(frame["attrs"] ?? .null))
    case .addQueryOK:
      guard let q = frame["q"], let result = frame["result"] else { throw missing("q or result") }
      self = .addQueryOK(
        q: .json(q), result: .json(result), processedTxID: frame["processed-tx-id"]?.intValue, clientEventID: eventID)
    case .addQueryExists:
      self = .addQueryExists(q: .json(frame["q"] ?? .null), clientEventID: eventID)
    case .removeQueryOK:
      self = .removeQueryOK(q: .json(frame["q"] ?? .null), clientEventID: eventID)
    case .refreshOK:
      var computations: [Computation] = []
      for computation in frame["computations"]?.arrayValue ?? [] {
        guard let q = computation["instaql-query"] else { throw missing("instaql-query in a computation") }
        if let result = computation["instaql-result"] {
          computations.append(Computation(q: .json(q), result: .json(result)))
        } else if let changes = computation["instaql-result-changes"] {
          guard let changes = ResultChanges(json: changes) else {
            throw ServerMessageError(description: "refresh-ok with malformed instaql-result-changes")
          }
          computations.append(Computation(q: .json(q), content: .changes(changes)))
        } else {
          throw missing("instaql-result in a computation")
        }
      }
      self = .refreshOK(
        processedTxID: frame["processed-tx-id"]?.intValue, computations: computations, attrs: frame["attrs"].map(WireFragment.json))
    case .transactOK:
      guard let txID = frame["tx-id"]?.intValue else { throw missing("a tx-id") }
      self = .transactOK(txID: txID, clientEventID: eventID)
    case .error:
      self = .error(ServerError(frame: frame), clientEventID: eventID, originalEvent: OriginalEvent(json: frame["original-event"] ?? .null))
    case .joinRoomOK: self = .joinRoomOK(roomID: try roomID(), clientEventID: eventID)
    case .joinRoomError: self = .joinRoomError(roomID: try roomID(), error: ServerError(frame: frame["error"] ?? [:]))
    case .leaveRoomOK: self = .leaveRoomOK(roomID: try roomID(), clientEventID: eventID)
    case .setPresenceOK: self = .setPresenceOK(roomID: try roomID(), clientEventID: eventID)
    case .refreshPresence:
      guard case .object = frame["data"] else { throw missing("a data object") }
      self = .refreshPresence(roomID: try roomID(), data: frame["data"]!)
    case .patchPresence:
      guard let edits = frame["edits"], case .array = edits else { throw missing("edits") }
      self = .patchPresence(roomID: try roomID(), edits: .json(edits))
    case .clientBroadcastOK:
      self = .clientBroadcastOK(
        roomID: try roomID(), topic: frame["topic"] ?? .null, data: frame["data"] ?? .null, clientEventID: eventID)
    case .serverBroadcast:
      self = .serverBroadcast(roomID: try roomID(), topic: frame["topic"] ?? .null, data: frame["data"] ?? .null)
    case .appStatusChanged:
      guard let status = frame["status"]?.stringValue else { throw missing("a status") }
      self = .appStatusChanged(status: status)
    case .sseInit:
      guard let machineID = frame["machine-id"]?.stringValue, let sessionID = frame["session-id"]?.stringValue else {
        throw missing("a machine-id and a session-id")
      }
      self = .sseInit(machineID: machineID, sessionID: sessionID)
    }
  }

  /// The frame's text: members in the order the reference server writes them, fragments as given.
  public func serialized() -> String {
    var w = FrameWriter()
    w.member("op", op.rawValue)
    switch self {
    case let .initOK(sessionID, clientEventID, auth, appStatus, attrs):
      if let sessionID { w.member("session-id", sessionID) }
      w.member("client-event-id", clientEventID.json)
      w.member("auth", auth)
      if let appStatus { w.member("app-status", ["status": .string(appStatus)]) }
      w.member("attrs", attrs)
    case let .addQueryOK(q, result, processedTxID, clientEventID):
      w.member("q", q)
      w.member("result", result)
      w.member("result-meta", JSON.null)
      if let processedTxID { w.member("processed-tx-id", processedTxID) }
      w.member("client-event-id", clientEventID.json)
    case let .addQueryExists(q, clientEventID), let .removeQueryOK(q, clientEventID):
      w.member("q", q)
      w.member("client-event-id", clientEventID.json)
    case let .refreshOK(processedTxID, computations, attrs):
      if let processedTxID { w.member("processed-tx-id", processedTxID) }
      w.member("computations") { out in
        out += "["
        for (i, computation) in computations.enumerated() {
          if i > 0 { out += "," }
          out += "{\"instaql-query\":"
          computation.q.write(to: &out)
          switch computation.content {
          case let .result(result):
            out += ",\"instaql-result\":"
            result.write(to: &out)
          case let .changes(changes):
            out += ",\"instaql-result-changes\":"
            changes.json.write(to: &out, style: .compact, indent: 0)
          }
          out += "}"
        }
        out += "]"
      }
      if let attrs { w.member("attrs", attrs) }
    case let .transactOK(txID, clientEventID):
      w.member("tx-id", txID)
      // The reference's `isn` (its log position); clients read `tx-id`.
      w.member("isn", String(txID))
      w.member("client-event-id", clientEventID.json)
    case let .error(error, clientEventID, originalEvent):
      w.member("status", error.status)
      w.member("client-event-id", clientEventID.json)
      w.member("original-event", originalEvent.json)
      if let type = error.type { w.member("type", type.rawValue) }
      w.member("message", error.message)
      w.member("hint", error.hint)
    case let .joinRoomOK(roomID, clientEventID), let .leaveRoomOK(roomID, clientEventID),
      let .setPresenceOK(roomID, clientEventID):
      w.member("room-id", roomID)
      w.member("client-event-id", clientEventID.json)
    case let .joinRoomError(roomID, error):
      w.member("room-id", roomID)
      var e: JSONObject = [:]
      if let type = error.type { e["type"] = .string(type.rawValue) }
      e["message"] = .string(error.message)
      e["hint"] = error.hint
      w.member("error", .object(e))
    case let .refreshPresence(roomID, data):
      w.member("room-id", roomID)
      w.member("data", data)
    case let .patchPresence(roomID, edits):
      w.member("room-id", roomID)
      w.member("edits", edits)
    case let .clientBroadcastOK(roomID, topic, data, clientEventID):
      w.member("room-id", roomID)
      w.member("topic", topic)
      w.member("data", data)
      w.member("client-event-id", clientEventID.json)
    case let .serverBroadcast(roomID, topic, data):
      w.member("room-id", roomID)
      w.member("topic", topic)
      w.member("data", data)
    case let .appStatusChanged(status):
      w.member("status", status)
    case let .sseInit(machineID, sessionID):
      w.member("machine-id", machineID)
      w.member("session-id", sessionID)
    }
    return w.finish()
  }
}
