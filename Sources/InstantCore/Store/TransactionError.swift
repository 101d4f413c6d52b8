/// A transaction the server refuses, shaped like the reference server's error (status 400).
///
/// `kind` says what went wrong; `wireType`, `message` and `hint` are what goes on the wire;
/// `description` says it for a Swift caller.
package struct TransactionError: Error, CustomStringConvertible, Equatable, Sendable {
  package enum Kind: String, Sendable {
    /// A malformed step, an unknown attr, a value of the wrong type.
    case validationFailed = "validation-failed"
    /// A unique value or an attr that exists already (or, in `create` mode, the entity).
    case recordNotUnique = "record-not-unique"
    /// An `update` of a missing entity, a lookup that finds nothing, an unknown attr to update.
    case recordNotFound = "record-not-found"
    /// A write to server-owned data (`$users`, `$files`).
    case permissionDenied = "permission-denied"
  }

  package var kind: Kind
  package var message: String
  package var hint: JSON
  package var description: String

  /// The reference's `type` string.
  package var wireType: String { kind.rawValue }

  package init(_ kind: Kind, _ message: String, hint: JSON = .object([:]), description: String? = nil) {
    self.kind = kind
    self.message = message
    self.hint = hint
    self.description = description ?? message
  }

  static func invalid(_ reason: String, in step: JSON? = nil) -> TransactionError {
    var errors: JSONObject = ["message": .string(reason)]
    if let step { errors["in"] = step }
    return TransactionError(
      .validationFailed, "Validation failed for tx-steps: \(reason)",
      hint: ["data-type": "tx-steps", "errors": .array([.object(errors)])],
      description: "Invalid tx-step: \(reason)" + (step.map { " (in \($0.serialized()))" } ?? ""))
  }
}
