import InstantCore
import OrderedCollections

/// An error the server reports the way the reference server does (docs/protocol.md, "Errors"): over the
/// socket as an `error` message, over HTTP as a `{type, message, hint}` body.
///
/// The constructors reproduce the reference's exact messages and hints, because clients route on
/// them (a bad refresh token on `init`, for example, makes the client sign out).
struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
  var kind: Kind
  var message: String
  var hint: JSON

  init(_ kind: Kind, message: String, hint: JSON = .null) {
    self.kind = kind
    self.message = message
    self.hint = hint
  }

  /// `400` for expected failures, `500` for server faults.
  var status: Int { kind.status }

  var description: String { "\(kind) (\(status)): \(message)" }

  /// `validation-failed`: "Validation failed for <dataType>: <messages>".
  static func validation(_ dataType: String, input: JSON, _ messages: [String]) -> ProtocolError {
    let base = "Validation failed for \(dataType)"
    let message = messages.isEmpty ? base : base + ": " + messages.joined(separator: ", ")
    return ProtocolError(
      .validationFailed, message: message,
      hint: [
        "data-type": .string(dataType), "input": input,
        "errors": .array(messages.map { ["message": .string($0)] }),
      ])
  }

  /// `param-missing` for a required key.
  static func paramMissing(_ key: String) -> ProtocolError {
    ProtocolError(.paramMissing, message: "Missing parameter: [\"\(key)\"]", hint: ["in": [.string(key)]])
  }

  /// `param-malformed` for a key whose value has the wrong type or shape.
  static func paramMalformed(_ key: String, input: JSON) -> ProtocolError {
    ProtocolError(
      .paramMalformed, message: "Malformed parameter: [\"\(key)\"]",
      hint: ["in": [.string(key)], "original-input": input])
  }

  /// `record-not-found` with the reference hint `{record-type, args?}`.
  static func recordNotFound(_ recordType: String, args: JSON = .null) -> ProtocolError {
    var hint: JSONObject = ["record-type": .string(recordType)]
    if args != .null { hint["args"] = args }
    return ProtocolError(.recordNotFound, message: "Record not found: \(recordType)", hint: .object(hint))
  }

  /// The reply to an op the server does not know.
  static func invalidOp(_ op: JSON) -> ProtocolError {
    ProtocolError(.paramMalformed, message: "Invalid op", hint: ["op": op])
  }

  /// The reference's reply to anything sent before `init`.
  static func initNotRun(sessionID: String) -> ProtocolError {
    validation("init", input: ["sess-id": .string(sessionID)], ["`init` has not run for this session."])
  }

  /// A server fault (status 500, no `type` on the wire); `message` says what failed.
  static func serverFault(_ message: String) -> ProtocolError {
    ProtocolError(.serverFault, message: message)
  }

  /// A transaction InstantCore refused, with its reference type, message and hint.
  init(_ error: TransactionError) {
    self.init(Kind(wireType: error.wireType), message: error.message, hint: error.hint)
  }

  /// The socket `error` message for a failed request.
  func message(clientEventID: JSON, originalEvent: JSON) -> JSON {
    var o: JSONObject = [
      "op": "error", "status": .number(Double(status)), "client-event-id": clientEventID,
      "original-event": originalEvent,
    ]
    if let type = kind.wireType { o["type"] = .string(type) }
    o["message"] = .string(message)
    o["hint"] = hint
    return .object(o)
  }

  /// The HTTP error body.
  var httpBody: JSON {
    ["type": .string(kind.wireType ?? "unknown"), "message": .string(message), "hint": hint]
  }
}
