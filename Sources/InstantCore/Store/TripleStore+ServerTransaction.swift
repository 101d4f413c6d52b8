import OrderedCollections

extension TripleStore {
  /// Applies a `transact`'s tx-steps with the reference server's semantics (docs/protocol.md, "How instant-local applies a transaction"):
  /// UUIDs are lower-cased; steps run grouped by op in order of each op's first appearance;
  /// attrs added in the transaction are usable by later steps; lookups `[attr-id, value]` resolve
  /// to the entity with that unique value or create it; `create`/`update` modes are checked;
  /// cardinality-one writes replace the value and keep the original creation time; unique and
  /// `checked-data-type` constraints are enforced; deletes cascade; new entities get `null`
  /// triples for the indexed attrs they do not set.
  ///
  /// Atomic: when it throws, the store is unchanged.
  /// - Parameters:
  ///   - now: the creation time for new triples, in epoch milliseconds.
  ///   - systemWrite: allows writing `$users` and `$files`, which clients may not create.
  package mutating func applyServerTransaction(_ txSteps: JSON, now: Double, systemWrite: Bool = false)
    throws(TransactionError) -> ServerTransactionChanges
  {
    guard case let .array(rawSteps) = txSteps else { throw .invalid("tx-steps must be an array") }
    var steps: [TxStep] = []
    steps.reserveCapacity(rawSteps.count)
    var order: [TxStep.Op] = []
    for raw in rawSteps {
      let step: TxStep
      do throws(TxStep.Malformed) { step = try TxStep(ServerSteps.lowercasingUUIDs(raw)) } catch {
        switch error {
        case .notAStep: throw .invalid("each tx-step must be an array starting with its op", in: raw)
        case let .unknownOp(op): throw .invalid("unknown op \(op)", in: raw)
        }
      }
      if !order.contains(step.op) { order.append(step.op) }
      steps.append(step)
    }

    // Writes happen in place and are undone from the journal if a step fails, so a write costs
    // the same in a large store as in a small one. `update-attr` rebuilds every index, which the
    // journal cannot follow; a transaction with one works on a copy instead.
    let previousAttrs = attrs
    let previousMaxTime = maxTime
    var context = ServerTransactionContext(now: now, systemWrite: systemWrite)
    func run(_ store: inout TripleStore) throws(TransactionError) {
      store.journal = ChangeJournal()
      for op in order {
        for step in steps where step.op == op {
          try store.applyServerStep(step, &context)
        }
      }
      try store.writeNullsForNewEntities(&context)
    }
    if order.contains(.updateAttr) {
      var draft = self
      try run(&draft)
      self = draft
    } else {
      do throws(TransactionError) {
        try run(&self)
      } catch {
        rollBack(journal!, attrs: previousAttrs, maxTime: previousMaxTime)
        throw error
      }
    }
    var changes = ServerTransactionChanges()
    let journal = self.journal!
    self.journal = nil
    changes.removed = journal.removed
    changes.added = journal.created.sorted().map { triple(at: $0) }
    // A value removed and written back unchanged is no change at all.
    let removedSet = Set(changes.removed)
    let addedSet = Set(changes.added)
    changes.removed.removeAll { addedSet.contains($0) }
    changes.added.removeAll { removedSet.contains($0) }
    changes.upsertedAttrs = context.upsertedAttrs.compactMap { attrs[$0] }
    changes.deletedAttrIDs = context.deletedAttrs
    changes.facts = context.facts
    changes.previousAttrs = previousAttrs
    return changes
  }

  /// Undoes a committed server transaction (for example when persisting it failed): its added
  /// triples go, its removed triples come back, and the attrs are as they were.
  package mutating func revert(_ changes: ServerTransactionChanges) {
    for t in changes.added {
      if let r = findRecord(t) { removeRecord(r, .clean) }
    }
    if let previous = changes.previousAttrs { attrs = previous }
    for t in changes.removed { index(t) }
    if changes.attrsChanged { rebuildClean() }
  }

  /// Undoes a failed transaction from its journal.
  mutating func rollBack(_ journal: ChangeJournal, attrs previous: AttrStore, maxTime previousMaxTime: Double) {
    self.journal = nil
    for r in journal.created.sorted() where records[Int(r)].isLive { removeRecord(r, .clean) }
    attrs = previous
    for t in journal.removed { index(t) }
    maxTime = previousMaxTime
  }

  /// The live record holding exactly this triple (objects compared by value).
  func findRecord(_ t: Triple) -> UInt32? {
    guard let e = symbols.lookup(t.entity), let a = symbols.lookup(t.attr), let list = slot(e, a) else { return nil }
    return list.array.first { records[Int($0)].isLive && json(records[Int($0)].v) == t.value }
  }
}

enum ServerSteps {
  static let systemEtypes: Set<String> = ["$users", "$files", "$streams"]

  /// Every string that parses as a UUID becomes its lower-case canonical spelling.
  static func lowercasingUUIDs(_ value: JSON) -> JSON {
    switch value {
    case let .string(s): return isUUID(s) ? .string(s.lowercased()) : value
    case let .array(a): return .array(a.map(lowercasingUUIDs))
    case let .object(o):
      var out = JSONObject(minimumCapacity: o.count)
      for (k, v) in o { out[k] = lowercasingUUIDs(v) }
      return .object(out)
    default: return value
    }
  }

  static func isUUID(_ s: String) -> Bool { UUIDBits(s).isValid }
}

