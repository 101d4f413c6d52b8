import CEL
package import InstantCore
import OrderedCollections

extension PermissionRules {
  /// The triples of a query's result that the asker may see: those of entities whose `view` rule
  /// passes, without the attributes a field rule hides, and without links to entities they may
  /// not view. Entities are left out, the query never fails for it; a rule that cannot be
  /// evaluated fails the whole query, as on the reference.
  ///
  /// The client evaluates the query itself on these triples, so an entity that matched a `where`
  /// only through an entity the asker may not view no longer matches there, as the reference
  /// drops such rows.
  package func visibleTriples(
    _ triples: [Triple], in store: TripleStore, context: RuleContext, ruleParams: JSONObject
  ) throws(ServerError) -> [Triple] {
    var visibility = QueryVisibility(rules: self, store: store, context: context, ruleParams: ruleParams)
    return try visibility.visible(triples)
  }

  /// ``visibleTriples(_:in:context:ruleParams:)`` with every view and field check it made, each
  /// with its rule and answer, for `query_perms_check`. A rule that cannot be evaluated fails
  /// the query, with the cause, as the reference shows it to admins.
  package func visibleTriplesChecked(
    _ triples: [Triple], in store: TripleStore, context: RuleContext, ruleParams: JSONObject
  ) throws(ServerError) -> (triples: [Triple], checks: [PermissionCheck]) {
    var visibility = QueryVisibility(rules: self, store: store, context: context, ruleParams: ruleParams, recording: true)
    return (try visibility.visible(triples), visibility.recorded ?? [])
  }
}

/// One query evaluation's view checks, each (namespace, entity) and field evaluated once, each
/// namespace's rules looked up once.
struct QueryVisibility {
  let rules: PermissionRules
  let store: TripleStore
  let base: [String: CELValue]
  private var namespaces: [String: Namespace] = [:]
  private var views: [EntityKey: Bool] = [:]
  private var fields: [FieldKey: Bool] = [:]
  /// Every check made, when recording; `nil` otherwise.
  private(set) var recorded: [PermissionCheck]?

  /// A namespace's view rule and the labels that have field rules.
  private struct Namespace {
    var view: RulesDocument.Rule?
    var fieldLabels: Set<String>
  }

  private struct EntityKey: Hashable {
    var id: String
    var etype: String
  }

  private struct FieldKey: Hashable {
    var id: String
    var etype: String
    var label: String
  }

  init(rules: PermissionRules, store: TripleStore, context: RuleContext, ruleParams: JSONObject, recording: Bool = false) {
    self.rules = rules
    self.recorded = recording ? [] : nil
    self.store = store
    self.base = [
      "auth": context.auth(store), "request": context.request(modifiedFields: []),
      "ruleParams": RuleValues.record(ruleParams),
    ]
  }

  mutating func visible(_ triples: [Triple]) throws(ServerError) -> [Triple] {
    var out: [Triple] = []
    out.reserveCapacity(triples.count)
    for triple in triples where try shows(triple) { out.append(triple) }
    return out
  }

  mutating func shows(_ triple: Triple) throws(ServerError) -> Bool {
    guard let attr = store.attrs[triple.attr] else { return false }
    let etype = attr.forwardIdentity.etype
    guard try view(triple.entity, etype) else { return false }
    let label = attr.forwardIdentity.label
    if namespace(etype).fieldLabels.contains(label) {
      guard try field(triple.entity, etype, label) else { return false }
    }
    if attr.isRef, let target = triple.value.stringValue, let reverse = attr.reverseIdentity {
      return try view(target, reverse.etype, reporting: false)
    }
    return true
  }

  private mutating func namespace(_ etype: String) -> Namespace {
    if let known = namespaces[etype] { return known }
    let made = Namespace(view: rules.document.rule(etype, .view), fieldLabels: Set(rules.document.fieldLabels(etype)))
    namespaces[etype] = made
    return made
  }

  /// Whether `etype`'s view rule lets the entity be seen. A link's target is checked without
  /// `reporting`: the reference reports the entities of the result's triples only, so a recording
  /// run leaves it out of the report (and out of the cache, so that its own triples report it).
  private mutating func view(_ id: String, _ etype: String, reporting: Bool = true) throws(ServerError) -> Bool {
    let key = EntityKey(id: id, etype: etype)
    if let known = views[key] { return known }
    if !reporting, let report = recorded {
      let result = try evaluate(namespace(etype).view, id, etype, label: nil)
      recorded = report
      return result
    }
    let result = try evaluate(namespace(etype).view, id, etype, label: nil)
    views[key] = result
    return result
  }

  private mutating func field(_ id: String, _ etype: String, _ label: String) throws(ServerError) -> Bool {
    let key = FieldKey(id: id, etype: etype, label: label)
    if let known = fields[key] { return known }
    let result = try evaluate(rules.document.fieldRule(etype, label: label), id, etype, label: label)
    fields[key] = result
    return result
  }

  /// A view rule (`label` nil) or a field rule's answer for one entity, recorded when recording.
  private mutating func evaluate(_ rule: RulesDocument.Rule?, _ id: String, _ etype: String, label: String?) throws(ServerError) -> Bool {
    guard let rule else {
      if recorded != nil {
        let data = attributes(id, etype)
        recorded?.append(
          PermissionCheck(etype: etype, id: id, action: "view", label: label, scope: "object", passed: true, bindings: ["data": .object(data)]))
      }
      return true
    }
    switch rules.program(rule, .view) {
    case let .failure(problem):
      throw PermissionDenial.invalidRule(problem)
    case let .success(program):
      var variables = base
      let data = attributes(id, etype)
      variables["data"] = .object(EntityValue(id: id, etype: etype, fields: data, reader: store))
      let allowed: Bool
      do {
        allowed = try program.allows(variables)
      } catch {
        throw PermissionDenial.evaluationFailed(etype, label.map { "fields.\($0)" } ?? "view", error, showCause: recorded != nil)
      }
      recorded?.append(
        PermissionCheck(
          etype: etype, id: id, action: "view", label: label, scope: "object", rule: rule, code: program.code, passed: allowed,
          bindings: ["data": .object(data)]))
      return allowed
    }
  }

  private func attributes(_ id: String, _ etype: String) -> JSONObject { store.attributes(of: id, etype: etype) ?? ["id": .string(id)] }
}
