package import InstantCore
import OrderedCollections

/// One rule check of a query or a transaction, as the admin debug routes (`query_perms_check`,
/// `transact_perms_check`) report it: what was checked, which rule decided and what it answered.
/// The engine records these only when asked (``PermissionRules/visibleTriplesChecked(_:in:context:ruleParams:)``,
/// ``PermissionRules/checkEach(_:in:context:)``); the enforcing paths record nothing.
package struct PermissionCheck: Sendable, Equatable {
  /// The namespace checked (`attrs` for an attribute a transaction adds or changes).
  package var etype: String
  /// The entity checked; `nil` for an attribute.
  package var id: String?
  /// `view` (field rules too), `create`, `update`, `delete`, `link` or `unlink`.
  package var action: String
  /// The field of a field rule (`fields.<label>`); `nil` for an entity's rule.
  package var label: String?
  /// `object` for an entity, `attr` for an attribute.
  package var scope: String
  /// The rule that decided; `nil` when none applies, which allows.
  package var rule: RulesDocument.Rule?
  /// The rule as evaluated, binds wrapped around it (``CompiledRule/code``).
  package var code: String?
  package var passed: Bool
  /// What the rule read: `data` (the entity), and for a transaction `new-data`, `linked-data`,
  /// `linked-etype`, `actions`, `rule-params`, `modified-fields`, keyed as the reference keys them.
  package var bindings: JSONObject

  /// `program` as the reference reports it: `{etype, action, code, display-code}`, `{}` when no
  /// rule applies.
  var program: JSON {
    guard let rule, let code else { return [:] }
    return ["etype": .string(etype), "action": .string(action), "code": .string(code), "display-code": .string(rule.source)]
  }

  /// An entry of `query_perms_check`'s `check-results`: `{id, entity, label, record, program, check}`.
  package var queryResult: JSON {
    [
      "id": id.map(JSON.string) ?? .null, "entity": .string(etype), "label": label.map(JSON.string) ?? .null,
      "record": bindings["data"] ?? .null, "program": program, "check": .bool(passed),
    ]
  }

  /// An entry of `transact_perms_check`'s `check-results`: `{scope, action, etype, eid, program,
  /// bindings, check-result, check-pass?}`.
  package var transactionResult: JSON {
    [
      "scope": .string(scope), "action": .string(action), "etype": .string(etype), "eid": id.map(JSON.string) ?? .null,
      "program": program, "bindings": .object(bindings), "check-result": .bool(passed), "check-pass?": .bool(passed),
    ]
  }
}
