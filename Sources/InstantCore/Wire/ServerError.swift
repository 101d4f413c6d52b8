import OrderedCollections

/// An error as the server reports it (docs/protocol.md, "Errors"): over the socket in an `error`
/// message, over HTTP as a `{type, message, hint}` body. instant-local builds these; the client
/// reads them.
///
/// The constructors reproduce the reference server's messages and hints, because clients route on
/// the type and hint (a bad refresh token on `init`, for example, makes a client sign out).
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `nil` for a server fault, which the reference sends without a type.
  public var type: ServerErrorType?
  /// `400` for expected failures, `500` for faults (the request may or may not have happened).
  public var status: Int
  public var message: String
  public var hint: JSON

  public init(_ type: ServerErrorType?, message: String, hint: JSON = .null, status: Int? = nil) {
    self.type = type
    self.message = message
    self.hint = hint
    self.status = status ?? (type == nil ? 500 : 400)
  }

  public var description: String { "\(type?.rawValue ?? "server-fault") (\(status)): \(message)" }

  /// Whether the server may have done what was asked (a timeout, a fault): a write that met
  /// one stays pending and is sent again.
  public var isFault: Bool { status >= 500 }

  /// `validation-failed`: "Validation failed for <dataType>: <messages>".
  public static func validation(_ dataType: String, input: JSON, _ messages: [String]) -> ServerError {
    let base = "Validation failed for \(dataType)"
    let message = messages.isEmpty ? base : base + ": " + messages.joined(separator: ", ")
    return ServerError(
      .validationFailed, message: message,
      hint: [
        "data-type": .string(dataType), "input": input,
        "errors": .array(messages.map { ["message": .string($0)] }),
      ])
  }

  /// `param-missing` for a required key.
  public static func paramMissing(_ key: String) -> ServerError {
    ServerError(.paramMissing, message: "Missing parameter: [\"\(key)\"]", hint: ["in": [.string(key)]])
  }

  /// `param-malformed` for a key whose value has the wrong type or shape.
  public static func paramMalformed(_ key: String, input: JSON) -> ServerError {
    ServerError(
      .paramMalformed, message: "Malformed parameter: [\"\(key)\"]",
      hint: ["in": [.string(key)], "original-input": input])
  }

  /// `record-not-found` with the reference hint `{record-type, args?}`.
  public static func recordNotFound(_ recordType: String, args: JSON = .null) -> ServerError {
    var hint: JSONObject = ["record-type": .string(recordType)]
    if args != .null { hint["args"] = args }
    return ServerError(.recordNotFound, message: "Record not found: \(recordType)", hint: .object(hint))
  }

  /// The reply to an op the server does not know.
  public static func invalidOp(_ op: JSON) -> ServerError {
    ServerError(.paramMalformed, message: "Invalid op", hint: ["op": op])
  }

  /// The reference's reply to anything sent before `init`.
  public static func initNotRun(sessionID: String) -> ServerError {
    validation("init", input: ["sess-id": .string(sessionID)], ["`init` has not run for this session."])
  }

  /// A server fault (status 500, no type on the wire); `message` says what failed.
  public static func serverFault(_ message: String) -> ServerError {
    ServerError(nil, message: message)
  }

  /// The HTTP error body.
  public var httpBody: JSON {
    ["type": .string(type?.rawValue ?? "unknown"), "message": .string(message), "hint": hint]
  }

  /// The error of an `error` frame (or of a `join-room-error`'s `error`); missing parts read as
  /// the reference client reads them.
  public init(frame: JSON) {
    let status = frame["status"]?.intValue ?? 400
    self.init(
      frame["type"]?.stringValue.map(ServerErrorType.init(rawValue:)),
      message: frame["message"]?.stringValue ?? "the server refused the request", hint: frame["hint"] ?? .null,
      status: status)
  }

  /// Whether this refuses an `add-attr` because the attribute exists under another id (another
  /// client created it first): `record-not-unique` whose `hint.record-type` is `ident` (the
  /// reference's `idents` unique index on `etype.label`, the one the race hits, and instant-local's)
  /// or `attr` (the reference's `attrs` table). Told by type and hint only.
  public var isAttrConflict: Bool {
    guard type == .recordNotUnique, let recordType = hint["record-type"]?.stringValue else { return false }
    return recordType == "ident" || recordType == "attr"
  }
}
