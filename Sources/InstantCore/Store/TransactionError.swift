import OrderedCollections

/// A transaction the server refuses, shaped like the reference server's error (status 400).
///
/// `kind`, `message` and `hint` are what goes on the wire (``serverError``);
/// `description` says it for a Swift caller.
package struct TransactionError: Error, CustomStringConvertible, Equatable, Sendable {
  /// `validation-failed` (a malformed step, an unknown attr, a value of the wrong type),
  /// `record-not-unique` (a unique value or an attr that exists, or the entity in `create` mode),
  /// `record-not-found` (an `update` of a missing entity, a lookup that finds nothing) or
  /// `permission-denied` (a write to server-owned data).
  package var kind: ServerErrorType
  package var message: String
  package var hint: JSON
  package var description: String

  /// As the server reports it.
  package var serverError: ServerError { ServerError(kind, message: message, hint: hint) }

  package init(_ kind: ServerErrorType, _ message: String, hint: JSON = .object([:]), description: String? = nil) {
    self.kind = kind
    self.message = message
    self.hint = hint
    self.description = description ?? message
  }

  /// An `add-attr` whose `etype.label` another attr (`other`) already has. The hint is the
  /// reference's for its `idents` unique index (`record-type: ident`, `etype`, `label`), plus the
  /// id of the attr that holds the name in `args`; the message is the reference's for the
  /// same conflict found by its `add-attr` SQL.
  static func identTaken(_ etype: String, _ label: String, by other: Attr) -> TransactionError {
    TransactionError(
      .recordNotUnique, "Another attribute for \(etype).\(label) exists with different properties.",
      hint: [
        "record-type": "ident", "etype": .string(etype), "label": .string(label), "args": .array([.string(other.id)]),
      ])
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
