import InstantCore

/// An error the server reports the way the reference server does (protocol.md §1.6): over the
/// socket as an `error` message, over HTTP as a `{type, message, hint}` body.
///
/// The constructors reproduce the reference's exact messages and hints, because clients route on
/// them (a bad refresh token on `init`, for example, makes the client sign out).
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `400` for expected failures, `500` for server faults.
  public var status: Int
  /// The reference error type (`validation-failed`, `record-not-found`, …); `nil` for uncaught errors.
  public var type: String?
  public var message: String
  public var hint: JSON

  public init(status: Int = 400, type: String?, message: String, hint: JSON = .null) {
    self.status = status
    self.type = type
    self.message = message
    self.hint = hint
  }

  public var description: String { "\(type ?? "error") (\(status)): \(message)" }

  /// `validation-failed`: "Validation failed for <dataType>: <messages>".
  public static func validation(_ dataType: String, input: JSON, _ messages: [String]) -> ProtocolError {
    let base = "Validation failed for \(dataType)"
    let message = messages.isEmpty ? base : base + ": " + messages.joined(separator: ", ")
    return ProtocolError(
      type: "validation-failed", message: message,
      hint: [
        "data-type": .string(dataType), "input": input,
        "errors": .array(messages.map { ["message": .string($0)] }),
      ])
  }

  /// `param-missing` for a required key.
  public static func paramMissing(_ key: String) -> ProtocolError {
    ProtocolError(type: "param-missing", message: "Missing parameter: [\"\(key)\"]", hint: ["in": [.string(key)]])
  }

  /// `param-malformed` for a key whose value has the wrong type or shape.
  public static func paramMalformed(_ key: String, input: JSON) -> ProtocolError {
    ProtocolError(
      type: "param-malformed", message: "Malformed parameter: [\"\(key)\"]",
      hint: ["in": [.string(key)], "original-input": input])
  }

  /// `record-not-found` with the reference hint `{record-type, args?}`.
  public static func recordNotFound(_ recordType: String, args: JSON = .null) -> ProtocolError {
    var hint: JSONObject = ["record-type": .string(recordType)]
    if args != .null { hint["args"] = args }
    return ProtocolError(type: "record-not-found", message: "Record not found: \(recordType)", hint: .object(hint))
  }

  /// The reply to an op the server does not know.
  public static func invalidOp(_ op: JSON) -> ProtocolError {
    ProtocolError(type: "param-malformed", message: "Invalid op", hint: ["op": op])
  }

  /// The reference's reply to anything sent before `init`.
  public static func initNotRun(sessionID: String) -> ProtocolError {
    validation("init", input: ["sess-id": .string(sessionID)], ["`init` has not run for this session."])
  }

  /// An unexpected server fault (status 500, no type), with the reference's apology.
  public static func internalError() -> ProtocolError {
    ProtocolError(status: 500, type: nil, message: "Yikes, something broke on our end! Sorry about that.")
  }

  /// The socket `error` message for a failed request.
  func message(clientEventID: JSON, originalEvent: JSON) -> JSON {
    var o: JSONObject = [
      "op": "error", "status": .number(Double(status)), "client-event-id": clientEventID,
      "original-event": originalEvent,
    ]
    if let type { o["type"] = .string(type) }
    o["message"] = .string(message)
    o["hint"] = hint
    return .object(o)
  }

  /// The HTTP error body.
  var httpBody: JSON {
    ["type": type.map(JSON.string) ?? "unknown", "message": .string(message), "hint": hint]
  }
}
