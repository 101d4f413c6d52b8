// TEMPORARY STAND-IN. Delete this file once InstantCore's "Server query and transaction API"
// (ServerQueryResult, TransactionError, ServerTransactionChanges, TripleStore.serverQuery,
// TripleStore.applyServerTransaction) is merged from main. It mirrors those signatures with a
// naive evaluator so the server can be exercised before the real API lands.
import InstantCore

/// Stand-in for InstantCore's `ServerQueryResult`.
struct ServerQueryResult: Sendable, Equatable {
  var triples: [Triple]
  var pageInfo: JSON?
  var instaqlResult: JSON
}

/// Stand-in for InstantCore's `TransactionError` (status 400).
struct TransactionError: Error, Sendable {
  var type: String
  var message: String
  var hint: JSON
}

/// Stand-in for InstantCore's `ServerTransactionChanges`.
struct ServerTransactionChanges: Sendable {
  var added: [Triple] = []
  var removed: [Triple] = []
  var upsertedAttrs: [Attr] = []
  var deletedAttrIDs: [String] = []
  var attrsChanged: Bool { !upsertedAttrs.isEmpty || !deletedAttrIDs.isEmpty }
}

extension TripleStore {
  /// Naive stand-in: every triple whose attr belongs to a namespace the query names.
  func serverQuery(_ q: JSON) throws(InstaQLError) -> ServerQueryResult {
    let forms = q.objectValue ?? [:]
    var etypes: Set<String> = []
    func walk(_ etype: String, _ form: JSON) {
      etypes.insert(etype)
      guard case let .object(children) = form else { return }
      for (label, child) in children where label != "$" {
        if let a = attrs.forward(etype, label), let r = a.reverseIdentity { walk(r.etype, child) }
        if let a = attrs.reverse(etype, label) { walk(a.forwardIdentity.etype, child) }
      }
    }
    for (etype, form) in forms where etype != "$$ruleParams" { walk(etype, form) }
    let triples = self.triples.filter { t in
      guard let a = attrs[t.attr] else { return false }
      return etypes.contains(a.forwardIdentity.etype)
    }
    let rows = JSON.array(triples.map(\.json))
    let result: JSON = [["data": ["datalog-result": ["join-rows": [rows]]], "child-nodes": []]]
    return ServerQueryResult(triples: triples, pageInfo: nil, instaqlResult: result)
  }

  /// Naive stand-in: client-side semantics plus an unknown-attr check; atomic.
  mutating func applyServerTransaction(
    _ txSteps: JSON, now: Double, systemWrite: Bool = false
  ) throws(TransactionError) -> ServerTransactionChanges {
    guard case let .array(steps) = txSteps else {
      throw TransactionError(type: "validation-failed", message: "Validation failed for tx-steps", hint: ["data-type": "tx-steps"])
    }
    var known = Set(attrs.attrs.keys)
    for step in steps {
      guard let parts = step.arrayValue, let action = parts.first?.stringValue else {
        throw TransactionError(type: "validation-failed", message: "Validation failed for tx-steps: invalid step", hint: ["data-type": "tx-steps", "input": step])
      }
      switch action {
      case "add-attr":
        if let id = parts.count > 1 ? parts[1]["id"]?.stringValue : nil { known.insert(id) }
      case "add-triple", "deep-merge-triple", "retract-triple":
        guard parts.count > 3, let a = parts[2].stringValue, known.contains(a) else {
          throw TransactionError(type: "validation-failed", message: "Validation failed for tx-steps: attr not found", hint: ["data-type": "tx-steps", "input": step])
        }
      case "delete-entity", "rule-params", "update-attr", "delete-attr", "restore-attr": break
      default:
        throw TransactionError(type: "validation-failed", message: "Validation failed for tx-steps: unknown action \(action)", hint: ["data-type": "tx-steps", "input": step])
      }
    }
    var draft = self
    do throws(StoreError) { try draft.transact(steps) } catch {
      throw TransactionError(type: "validation-failed", message: error.description, hint: ["data-type": "tx-steps"])
    }
    let before = Set(self.triples), after = Set(draft.triples)
    var changes = ServerTransactionChanges()
    changes.added = draft.triples.filter { !before.contains($0) }
    changes.removed = self.triples.filter { !after.contains($0) }
    for (id, attr) in draft.attrs.attrs where self.attrs[id] != attr { changes.upsertedAttrs.append(attr) }
    for id in self.attrs.attrs.keys where draft.attrs[id] == nil { changes.deletedAttrIDs.append(id) }
    self = draft
    return changes
  }
}
