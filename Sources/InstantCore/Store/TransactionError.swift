import OrderedCollections

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

  /// Whether an error with wire `type` and `hint` refuses an `add-attr` because the attribute
  /// exists under another id (another client created it first): `record-not-unique` whose
  /// `hint["record-type"]` is `ident` (the reference's `idents` unique index on `etype.label`,
  /// the one the race hits, and instant-local's) or `attr` (the reference's `attrs` table). Matched
  /// by type and hint only, never by the message, whose words differ between servers.
  package static func isAttrConflict(type: String?, hint: JSON?) -> Bool {
    guard type == Kind.recordNotUnique.rawValue, let recordType = hint?["record-type"]?.stringValue else { return false }
    return recordType == "ident" || recordType == "attr"
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
