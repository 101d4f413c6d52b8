public import InstantCore
import OrderedCollections

/// One permission rule check that ``InstantAdmin/debugQuery(_:rules:ruleParams:inference:)`` or
/// ``InstantAdmin/debugTransact(_:rules:dangerouslyCommit:)`` reports: which entity was checked
/// for what, by which rule, and whether the rule allowed it.
public struct AdminPermissionCheck: Sendable, Equatable {
  /// The namespace checked (`attrs` for an attribute a transaction adds or changes).
  public let etype: String
  /// The entity checked; `nil` for an attribute.
  public let id: String?
  /// `view`, `create`, `update`, `delete`, `link` or `unlink`.
  public let action: String
  /// The field whose rule (`fields.<field>`) was checked; `nil` for the entity's own rule.
  public let field: String?
  /// The rule as written in the rules (`display-code`); `nil` when no rule applies, which allows.
  public let code: String?
  /// What the rule answered, as the server sent it (`check`, or `check-result`).
  public let result: JSON
  /// Whether the check passed: the rule's answer is neither `false` nor `null`.
  public let passed: Bool
  /// The entity as the rule saw it (`data`); `null` when the server sent none.
  public let data: JSON
  /// Everything the server sent for this check, for what the fields above leave out (a
  /// transaction's `bindings`, the rule with its binds in `program.code`).
  public let raw: JSON

  /// Reads a `check-results` entry of either route: a query's `{id, entity, label, record,
  /// program, check}` or a transaction's `{etype, eid, action, program, bindings, check-result, …}`.
  init?(_ json: JSON) {
    guard case .object = json, let etype = (json["etype"] ?? json["entity"])?.stringValue else { return nil }
    self.etype = etype
    id = (json["eid"] ?? json["id"])?.stringValue
    action = json["action"]?.stringValue ?? json["program"]?["action"]?.stringValue ?? "view"
    field = json["label"]?.stringValue
    code = json["program"]?["display-code"]?.stringValue
    result = json["check-result"] ?? json["check"] ?? .null
    passed = json["check-pass?"]?.boolValue ?? (result != .null && result != false)
    data = json["record"] ?? json["bindings"]?["data"] ?? .null
    raw = json
  }
}
