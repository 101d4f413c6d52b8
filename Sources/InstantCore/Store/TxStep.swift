/// One tx-step `[op, …arguments]` (docs/protocol.md, "Tx-steps"), read once for both the client store
/// (``TripleStore/transact(_:)``) and the server (`applyServerTransaction`).
///
/// Every side reads and writes steps through this type: InstaML and instant-local build them with
/// the constructors below (``addTriple(_:_:_:mode:)`` …), and the client's write queue and the
/// server's admin routes match them by ``op``, never by comparing strings.
///
/// Reading a step only checks its op; the arguments stay in the step's array (no copy) and are
/// named by position below. What a missing or malformed argument means differs: the client
/// ignores it as the reference client does, the server refuses the step.
package struct TxStep: Sendable, Hashable {
  package enum Op: String, CaseIterable, Sendable {
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
  package enum Mode: String, Sendable {
    /// The entity must not exist yet.
    case create
    /// The entity must exist already.
    case update

    /// Whether a write in this mode may go ahead given whether its entity exists.
    package func allows(entityExists exists: Bool) -> Bool {
      switch self {
      case .create: !exists
      case .update: exists
      }
    }
  }

  /// Why a value is not a tx-step.
  package enum Malformed: Error {
    /// Not an array whose first element is a string.
    case notAStep
    /// An op neither side knows.
    case unknownOp(String)
  }

  package let op: Op
  /// The whole step, op first.
  package let parts: [JSON]

  /// Reads a step; throws when `json` is not an array whose first element is a known op.
  package init(_ json: JSON) throws(Malformed) {
    guard case let .array(parts) = json, let name = parts.first?.stringValue else { throw .notAStep }
    guard let op = Op(rawValue: name) else { throw .unknownOp(name) }
    self.op = op
    self.parts = parts
  }

  /// The step `json` is, or nil when it is not one (for code that passes such values on untouched).
  package static func read(_ json: JSON) -> TxStep? { try? TxStep(json) }

  private init(_ op: Op, _ arguments: [JSON]) {
    self.op = op
    self.parts = [.string(op.rawValue)] + arguments
  }

  // MARK: Building

  /// `["add-triple", entity, attr, value]`, with `{"mode": …}` when `mode` is given. `attr` is
  /// JSON because InstaML passes the reference's `null` for a lookup whose `id` attr is unknown.
  package static func addTriple(_ entity: JSON, _ attr: JSON, _ value: JSON, mode: Mode? = nil) -> TxStep {
    TxStep(.addTriple, [entity, attr, value] + (mode.map { [["mode": .string($0.rawValue)]] } ?? []))
  }

  /// `["deep-merge-triple", entity, attr, value]`, with `{"mode": …}` when `mode` is given.
  package static func deepMergeTriple(_ entity: JSON, _ attr: JSON, _ value: JSON, mode: Mode? = nil) -> TxStep {
    TxStep(.deepMergeTriple, [entity, attr, value] + (mode.map { [["mode": .string($0.rawValue)]] } ?? []))
  }

  /// `["retract-triple", entity, attr, value]`.
  package static func retractTriple(_ entity: JSON, _ attr: JSON, _ value: JSON) -> TxStep {
    TxStep(.retractTriple, [entity, attr, value])
  }

  /// `["delete-entity", entity, etype]`.
  package static func deleteEntity(_ entity: JSON, etype: String) -> TxStep {
    TxStep(.deleteEntity, [entity, .string(etype)])
  }

  /// `["rule-params", entity, etype, params]`.
  package static func ruleParams(_ entity: JSON, etype: String, _ params: JSON) -> TxStep {
    TxStep(.ruleParams, [entity, .string(etype), params])
  }

  /// `["add-attr", attr]`.
  package static func addAttr(_ attr: JSONObject) -> TxStep { TxStep(.addAttr, [.object(attr)]) }

  /// `["update-attr", change]`: the attr's id and the fields that change.
  package static func updateAttr(_ change: JSONObject) -> TxStep { TxStep(.updateAttr, [.object(change)]) }

  // MARK: Reading

  /// The argument at `position` (the op is position 0), when present.
  package subscript(position: Int) -> JSON? { position < parts.count ? parts[position] : nil }

  /// The step as JSON: what goes on the wire and into the pending-write file.
  package var json: JSON { .array(parts) }

  /// The entity position of a triple step or `delete-entity`: an id or a lookup `[attr-id, value]`.
  package var entity: JSON? { self[1] }
  /// The attr id of a triple step.
  package var attrID: String? { self[2]?.stringValue }
  /// The value of a triple step.
  package var value: JSON? { self[3] }
  /// Whether a triple step has all of entity, attr and value.
  package var isCompleteTriple: Bool { parts.count >= 4 }
  /// The namespace `delete-entity` is limited to.
  package var etype: JSON? { self[2] }
  /// The attr object of `add-attr`, the change of `update-attr`.
  package var attrArgument: JSON? { op == .addAttr || op == .updateAttr ? self[1] : nil }

  /// Whether the step writes or removes a triple (`add-triple`, `deep-merge-triple`, `retract-triple`).
  package var isTriple: Bool { op == .addTriple || op == .deepMergeTriple || op == .retractTriple }

  /// The write mode of `add-triple` / `deep-merge-triple`, if one is given.
  package var mode: Mode? {
    guard op == .addTriple || op == .deepMergeTriple else { return nil }
    return self[4]?["mode"]?.stringValue.flatMap(Mode.init(rawValue:))
  }
}
