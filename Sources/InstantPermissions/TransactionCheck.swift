import CEL
package import InstantCore
import OrderedCollections

extension PermissionRules {
  /// Checks a transaction that has been applied to `store` (the caller reverts it when this
  /// returns an error): every rule its steps meet, as the reference's permissioned transaction
  /// checks them (docs/permissions.md). `nil`: allowed.
  ///
  /// Update, delete, unlink and link-to-existing rules read the data as it was before the
  /// transaction (`data`, and what `data.ref` follows); create rules and links to new entities
  /// read it after, so `data.ref` sees links written in the same transaction.
  package func check(_ changes: ServerTransactionChanges, in store: TripleStore, context: RuleContext) -> ServerError? {
    var run = TransactionCheck(rules: self, store: store, changes: changes, context: context)
    return run.run()
  }

  /// Every check of a transaction applied to `store`, each with its rule and answer, for
  /// `transact_perms_check`: a refusal does not stop the checks that follow. Throws only when a
  /// rule cannot be evaluated (with the cause, as the reference shows it to admins).
  package func checkEach(_ changes: ServerTransactionChanges, in store: TripleStore, context: RuleContext) throws(ServerError)
    -> [PermissionCheck]
  {
    var run = TransactionCheck(rules: self, store: store, changes: changes, context: context, recording: true)
    if let error = run.run() { throw error }
    return run.recorded ?? []
  }
}

struct TransactionCheck {
  let rules: PermissionRules
  let store: TripleStore
  let before: StoreBefore
  let facts: TransactionFacts
  let context: RuleContext
  private var params: [String: JSONObject] = [:]
  /// `request.modifiedFields` of each entity.
  private var modified: [String: [String]] = [:]
  private var done: Set<String> = []
  /// Every check made, when recording (``PermissionRules/checkEach(_:in:context:)``); `nil`
  /// otherwise, and then the first refusal ends the run.
  private(set) var recorded: [PermissionCheck]?

  init(rules: PermissionRules, store: TripleStore, changes: ServerTransactionChanges, context: RuleContext, recording: Bool = false) {
    self.rules = rules
    self.recorded = recording ? [] : nil
    self.store = store
    self.before = StoreBefore(store, undoing: changes)
    self.facts = changes.facts
    self.context = context
    for write in facts.writes where write.kind != .retract && write.label != "id" {
      if !(modified[write.entity]?.contains(write.label) ?? false) { modified[write.entity, default: []].append(write.label) }
    }
    for step in facts.ruleParams {
      let id: String?
      switch step.entity {
      case let .string(s): id = s
      case let .array(pair) where pair.count == 2: id = pair[0].stringValue.flatMap { store.entity(withUnique: $0, value: pair[1]) }
      default: id = nil
      }
      guard let id, case let .object(values) = step.params else { continue }
      params[Self.key(id, step.etype), default: [:]].merge(values) { _, new in new }
    }
  }

  static func key(_ entity: String, _ etype: String) -> String { entity + "\u{0}" + etype }

  mutating func run() -> ServerError? {
    if facts.changedAttrs {
      guard recorded != nil else { return PermissionDenial.denied("attrs", scope: "attr") }
      recorded?.append(PermissionCheck(etype: "attrs", action: "update", scope: "attr", passed: false, bindings: [:]))
    }
    for write in facts.writes where write.linked == nil {
      if let error = entity(write.entity, write.etype, retractOnly: write.kind == .retract) { return error }
    }
    for write in facts.writes where write.linked != nil {
      if let error = link(write) { return error }
    }
    for delete in facts.deletes {
      if let error = self.delete(delete) { return error }
    }
    for attr in facts.addedAttrs {
      guard done.insert("attr\u{0}" + attr.canonicalString).inserted else { continue }
      let fields = attr.objectValue ?? [:]
      var variables = base(store, modifiedFields: [], params: [:])
      variables["data"] = RuleValues.record(fields)
      variables["newData"] = RuleValues.record(fields)
      if let error = evaluate(rules.document.attrsCreateRule, etype: "attrs", id: nil, action: "create", scope: "attr", variables) {
        return error
      }
    }
    return nil
  }

  // MARK: The checks

  /// `update` on an entity that existed, `create` on one that did not (a retraction of an
  /// attribute of an entity that did not exist checks nothing).
  private mutating func entity(_ id: String, _ etype: String, retractOnly: Bool = false) -> ServerError? {
    let old = before.attributes(of: id, etype: etype)
    if retractOnly && old == nil { return nil }
    guard done.insert("entity\u{0}" + Self.key(id, etype)).inserted else { return nil }
    let new = store.attributes(of: id, etype: etype) ?? ["id": .string(id)]
    var variables = base(old == nil ? store : before, modifiedFields: modifiedFields(id), params: params(id, etype))
    variables["newData"] = RuleValues.record(new)
    if let old {
      variables["data"] = entityValue(id, etype, old, before)
      return evaluate(rules.document.rule(etype, .update), etype: etype, id: id, action: "update", variables)
    }
    variables["data"] = entityValue(id, etype, new, store)
    return evaluate(rules.document.rule(etype, .create), etype: etype, id: id, action: "create", variables)
  }

  /// A link or unlink: the `link`/`unlink` rules of either side when there are any (a side
  /// without one is not checked), else `update`/`create` on the entity that holds the link and
  /// `view` on the entity it points to.
  private mutating func link(_ write: TransactionFacts.Write) -> ServerError? {
    guard let target = write.linked, let targetEtype = write.linkedEtype else { return nil }
    let unlink = write.kind == .retract
    let source = write.entity
    let document = rules.document
    let forward = document.linkRule(write.etype, label: write.label, unlink: unlink)
    let reverse = write.reverseLabel.flatMap { document.linkRule(targetEtype, label: $0, unlink: unlink) }
    let sourceBefore = before.attributes(of: source, etype: write.etype)
    let targetBefore = before.attributes(of: target, etype: targetEtype)
    let sourceAfter = store.attributes(of: source, etype: write.etype)
    let targetAfter = store.attributes(of: target, etype: targetEtype)
    let action = unlink ? "unlink" : "link"

    guard forward != nil || reverse != nil else {
      if !unlink || sourceBefore != nil {
        if let error = entity(source, write.etype) { return error }
      }
      let data: JSONObject
      let reader: any EntityReading
      if let targetBefore {
        (data, reader) = (targetBefore, before)
      } else if !unlink, let targetAfter {
        (data, reader) = (targetAfter, store)
      } else {
        return nil
      }
      guard done.insert("view\u{0}" + Self.key(target, targetEtype)).inserted else { return nil }
      var variables = base(reader, modifiedFields: [], params: merged(params(source, write.etype), params(target, targetEtype)))
      variables["data"] = entityValue(target, targetEtype, data, reader)
      return evaluate(document.rule(targetEtype, .view), etype: targetEtype, id: target, action: "view", variables)
    }

    if let forward, !(unlink && sourceBefore == nil) {
      let key = "\(action)\u{0}fwd\u{0}\(Self.key(source, write.etype))\u{0}\(target)\u{0}\(write.label)"
      if done.insert(key).inserted {
        let existed = sourceBefore != nil
        let reader: any EntityReading = existed ? before : store
        var variables = base(reader, modifiedFields: modifiedFields(source), params: merged(params(target, targetEtype), params(source, write.etype)))
        variables["data"] = entityValue(source, write.etype, (existed ? sourceBefore : sourceAfter) ?? ["id": .string(source)], reader)
        variables["newData"] = RuleValues.record(sourceAfter ?? [:])
        let linked = existed || unlink ? targetBefore : targetAfter
        if let linked { variables["linkedData"] = entityValue(target, targetEtype, linked, reader) }
        if !unlink {
          variables["actions"] = RuleValues.cel(["data": existed ? "update" : "create", "linkedData": targetBefore != nil ? "update" : "create"])
        }
        if let error = evaluate(forward, etype: write.etype, id: source, action: action, variables) { return error }
      }
    }
    if let reverse, let targetData = (targetBefore ?? (unlink ? nil : targetAfter)) {
      let key = "\(action)\u{0}rev\u{0}\(Self.key(target, targetEtype))\u{0}\(source)\u{0}\(write.label)"
      if done.insert(key).inserted {
        let existed = targetBefore != nil
        let reader: any EntityReading = existed ? before : store
        var variables = base(reader, modifiedFields: modifiedFields(target), params: merged(params(source, write.etype), params(target, targetEtype)))
        variables["data"] = entityValue(target, targetEtype, targetData, reader)
        variables["newData"] = RuleValues.record(targetAfter ?? [:])
        let linked = unlink ? sourceBefore : sourceAfter
        if let linked { variables["linkedData"] = entityValue(source, write.etype, linked, unlink ? before : store) }
        if !unlink {
          variables["actions"] = RuleValues.cel(["data": existed ? "update" : "create", "linkedData": sourceBefore != nil ? "update" : "create"])
        }
        if let error = evaluate(reverse, etype: targetEtype, id: target, action: action, variables) { return error }
      }
    }
    return nil
  }

  /// `delete` on each deleted entity, cascades included (which carry the params of the entity
  /// whose deletion caused them). No `unlink` rule is checked.
  private mutating func delete(_ delete: TransactionFacts.Delete) -> ServerError? {
    guard done.insert("delete\u{0}" + Self.key(delete.entity, delete.etype)).inserted else { return nil }
    let old = before.attributes(of: delete.entity, etype: delete.etype)
    var variables = base(before, modifiedFields: [], params: merged(params(delete.root, delete.rootEtype), params(delete.entity, delete.etype)))
    variables["data"] = old.map { entityValue(delete.entity, delete.etype, $0, before) } ?? RuleValues.record([:])
    return evaluate(rules.document.rule(delete.etype, .delete), etype: delete.etype, id: delete.entity, action: "delete", variables)
  }

  // MARK: Evaluating

  /// Runs one check: `nil` when it passes, or when recording (the check is recorded instead);
  /// a rule that cannot be evaluated refuses either way.
  private mutating func evaluate(
    _ rule: RulesDocument.Rule?, etype: String, id: String?, action: String, scope: String = "object",
    _ variables: [String: CELValue]
  ) -> ServerError? {
    guard let rule else {
      recorded?.append(PermissionCheck(etype: etype, id: id, action: action, scope: scope, passed: true, bindings: Self.bindings(variables)))
      return nil
    }
    let kind: CompiledRule.Variables =
      switch action {
      case "view", "delete": .view
      case "link": .link
      case "unlink": .unlink
      default: .write
      }
    switch rules.program(rule, kind) {
    case let .failure(problem):
      return PermissionDenial.invalidRule(problem)
    case let .success(program):
      let allowed: Bool
      do {
        allowed = try program.allows(variables)
      } catch {
        return PermissionDenial.evaluationFailed(etype, action, error, showCause: recorded != nil)
      }
      guard recorded != nil else { return allowed ? nil : PermissionDenial.denied(etype, scope: scope) }
      recorded?.append(
        PermissionCheck(
          etype: etype, id: id, action: action, scope: scope, rule: rule, code: program.code, passed: allowed,
          bindings: Self.bindings(variables)))
      return nil
    }
  }

  /// What a check's rule read, keyed as the reference reports a check's `bindings`.
  private static func bindings(_ variables: [String: CELValue]) -> JSONObject {
    var out: JSONObject = [:]
    for (name, key) in [("data", "data"), ("newData", "new-data"), ("linkedData", "linked-data"), ("actions", "actions"), ("ruleParams", "rule-params")] {
      if let value = variables[name] { out[key] = RuleValues.json(value) }
    }
    if case let .object(linked as EntityValue)? = variables["linkedData"] { out["linked-etype"] = .string(linked.etype) }
    if case let .map(request)? = variables["request"], let fields = request["modifiedFields"], case let .list(items) = fields, !items.isEmpty {
      out["modified-fields"] = RuleValues.json(fields)
    }
    return out
  }

  private func base(_ reader: any EntityReading, modifiedFields: [String], params: JSONObject) -> [String: CELValue] {
    [
      "auth": context.auth(reader), "request": context.request(modifiedFields: modifiedFields),
      "ruleParams": RuleValues.record(params),
    ]
  }

  private func entityValue(_ id: String, _ etype: String, _ fields: JSONObject, _ reader: any EntityReading) -> CELValue {
    .object(EntityValue(id: id, etype: etype, fields: fields, reader: reader))
  }

  /// The labels this transaction writes on the entity (any namespace, `id` left out), as the
  /// reference computes `request.modifiedFields`.
  private func modifiedFields(_ id: String) -> [String] { modified[id] ?? [] }

  private func params(_ id: String, _ etype: String) -> JSONObject { params[Self.key(id, etype)] ?? [:] }

  /// `mine` wins over `other`.
  private func merged(_ other: JSONObject, _ mine: JSONObject) -> JSONObject {
    other.merging(mine) { _, new in new }
  }
}
