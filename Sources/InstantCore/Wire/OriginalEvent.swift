public import OrderedCollections

/// What an `error` frame says it answers (`original-event`): the request, or the part of it the
/// server could read, with the session id.
public struct OriginalEvent: Sendable, Equatable {
  /// The members as they go on the wire.
  public private(set) var fields: JSONObject

  /// The members a frame's `original-event` carried (none when it is not an object).
  public init(json: JSON) { fields = json.objectValue ?? [:] }

  /// A request the server made up itself (a query stream's, a re-run query's): `op`, `q`, session.
  public init(op: ClientOp, q: JSON, sessionID: String) {
    fields = ["op": .string(op.rawValue), "q": q, "session-id": .string(sessionID)]
  }

  /// A frame that could not be read at all: only the session is known.
  public init(sessionID: String) { fields = ["session-id": .string(sessionID)] }

  /// The request a client sent, with the session id, and without the secrets it carried (a
  /// refresh token, an admin token): error frames are what clients log.
  public init(request: JSON, sessionID: String) {
    fields = request.objectValue ?? [:]
    fields["session-id"] = .string(sessionID)
    fields.removeValue(forKey: "refresh-token")
    fields.removeValue(forKey: "__admin-token")
  }

  /// The op of the request, when it named one this library knows.
  public var op: ClientOp? { fields["op"]?.stringValue.flatMap(ClientOp.init(rawValue:)) }
  /// The query of an `add-query`.
  public var q: JSON? { fields["q"] }
  /// The room of a room request.
  public var roomID: String? { fields["room-id"]?.stringValue }

  public var json: JSON { .object(fields) }
}
