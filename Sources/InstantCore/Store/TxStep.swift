/// One tx-step `[op, …arguments]` (docs/protocol.md, "Tx-steps"), read once for both the client store
/// (``TripleStore/transact(_:)``) and the server (`applyServerTransaction`).
///
/// Reading a step only checks its op; the arguments stay in the step's array (no copy) and are
/// named by position below. What a missing or malformed argument means differs: the client
/// ignores it as the reference client does, the server refuses the step.
struct TxStep {
  enum Op: String, CaseIterable {
    case addTriple = "add-triple"
    case deepMergeTriple = "deep-merge-triple"
    case retractTriple = "retract-triple"
    case deleteEntity = "delete-entity"
    case addAttr = "add-attr"
    case updateAttr = "update-attr"
    case deleteAttr = "delete-attr"
    case restoreAttr = "restore-attr"
    case ruleParams = "rule-params"
  }

  /// `{"mode": "create" | "update"}` on `add-triple` and `deep-merge-triple`.
  enum Mode {
    /// The entity must not exist yet.
    case create
    /// The entity must exist already.
    case update

    /// Whether a write in this mode may go ahead given whether its entity exists.
    func allows(entityExists exists: Bool) -> Bool {
      switch self {
      case .create: !exists
      case .update: exists
      }
    }
  }

  /// Why a value is not a tx-step.
  enum Malformed: Error {
    /// Not an array whose first element is a string.
    case notAStep
    /// An op neither side knows.
    case unknownOp(String)
  }

  let op: Op
  /// The whole step, op first.
  let parts: [JSON]

  init(_ json: JSON) throws(Malformed) {
    guard case let .array(parts) = json, let name = parts.first?.stringValue else { throw .notAStep }
    guard let op = Op(rawValue: name) else { throw .unknownOp(name) }
    self.op = op
    self.parts = parts
  }

  /// The argument at `position` (the op is position 0), when present.
  subscript(position: Int) -> JSON? { position < parts.count ? parts[position] : nil }

  /// The step as JSON, for error hints.
  var json: JSON { .array(parts) }

  /// The entity position of a triple step or `delete-entity`: an id or a lookup `[attr-id, value]`.
  var entity: JSON? { self[1] }
  /// The attr id of a triple step.
  var attrID: String? { self[2]?.stringValue }
  /// The value of a triple step.
  var value: JSON? { self[3] }
  /// Whether a triple step has all of entity, attr and value.
  var isCompleteTriple: Bool { parts.count >= 4 }
  /// The namespace `delete-entity` is limited to.
  var etype: JSON? { self[2] }

  /// The write mode of `add-triple` / `deep-merge-triple`, if one is given.
  var mode: Mode? {
    guard op == .addTriple || op == .deepMergeTriple else { return nil }
    switch self[4]?["mode"]?.stringValue {
    case "create": return .create
    case "update": return .update
    default: return nil
    }
  }
}
