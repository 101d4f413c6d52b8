import OrderedCollections
extension TripleStore {
  /// Applies store-level tx-steps exactly as the reference client's `store.transact` does for
  /// optimistic updates (instaql.md §7):
  ///
  /// - `add-triple` / `deep-merge-triple` steps with `{"mode": "create"|"update"}` are first
  ///   filtered against the store as it was before the batch (create of an existing entity and
  ///   update of a missing one are dropped);
  /// - lookup refs `[attr-id, value]` are resolved against the store; a step whose lookup cannot
  ///   be resolved is dropped (the optimistic update waits for the server);
  /// - steps naming unknown attrs are no-ops; unknown actions throw.
  ///
  /// With `atomically` (the default) the batch is atomic: if a step throws, the store is left
  /// exactly as it was. Without it the steps are applied in place, which spares a copy of the
  /// store per batch, and a step that throws leaves the steps before it applied: for a caller
  /// that rebuilds the store when that happens.
  public mutating func transact(_ steps: [JSON], atomically: Bool = true) throws(StoreError) {
    var parsed: [TxStep] = []
    parsed.reserveCapacity(steps.count)
    for step in steps {
      do throws(TxStep.Malformed) { parsed.append(try TxStep(step)) } catch {
        switch error {
        case let .unknownOp(name): throw .unknownAction(name)
        case .notAStep: throw .unknownAction((step.arrayValue?.first ?? step).serialized())
        }
      }
    }
    let kept = parsed.filter { passesModeCheck($0) }
    guard atomically else {
      clientClock = maxTime
      for step in kept { try apply(step) }
      return
    }
    var draft = self
    draft.clientClock = maxTime
    for step in kept {
      try draft.apply(step)
    }
    self = draft
  }

  /// The reference's mode check, against the store as it was before the batch: the entity exists
  /// when it has its namespace's id triple (a lookup that cannot be resolved counts as missing).
  func passesModeCheck(_ step: TxStep) -> Bool {
    guard let mode = step.mode else { return true }
    var exists = false
    if let attrId = step.attrID, let attr = attrs[attrId], let idAttr = attrs.primaryKey(attr.forwardIdentity.etype) {
      let eid = step.entity ?? .null
      if let e = resolveEntity(eid), let a = symbols.lookup(idAttr.id) {
        // The reference resolves the id triple's value too; a lookup value that cannot be
        // resolved makes the entity count as missing.
        if case let .array(lookup) = eid, lookup.count == 2, isKnownLookup(lookup), resolveLookup(lookup) == nil {
          exists = false
        } else {
          exists = slot(e, a) != nil
        }
      }
    }
    return mode.allows(entityExists: exists)
  }

  mutating func apply(_ step: TxStep) throws(StoreError) {
    switch step.op {
    case .addTriple:
      guard let (e, attr, value) = resolveTriple(step) else { return }
      writeTriple(e, attr, key(for: value), .client)
    case .deepMergeTriple: try mergeTriple(step)
    case .retractTriple: retractTriple(step)
    case .deleteEntity: try deleteEntity(step.entity ?? .null, etype: step.etype)
    case .addAttr:
      guard let attrJSON = step[1] else { throw .invalidAttr("add-attr without an attr") }
      do throws(Attr.Invalid) { attrs.add(try Attr(json: attrJSON)) } catch {
        throw .invalidAttr(error.description)
      }
    case .deleteAttr:
      guard let id = step[1]?.stringValue, attrs[id] != nil else { return }
      attrs.remove(id: id)
      rebuild { $0.attr != id }
    case .updateAttr:
      guard let partial = step[1]?.objectValue, let id = partial["id"]?.stringValue, attrs[id] != nil else { return }
      do throws(Attr.Invalid) { try attrs.update(partial) } catch { throw .invalidAttr(error.description) }
      rebuild()
    case .restoreAttr, .ruleParams:
      return
    }
  }

  // MARK: Lookup refs

  /// The entity a lookup `[attr-id, value]` names: the first triple of that attr with that value.
  func resolveLookup(_ lookup: [JSON]) -> UInt32? {
    guard lookup.count >= 2, let attrId = lookup[0].stringValue, let a = symbols.lookup(attrId),
      aev[a] != nil, let v = existingKey(lookup[1]), let list = aev[a]?[v], let r = list.first
    else { return nil }
    let e = records[Int(r)].e
    return symbols[e].isEmpty ? nil : e
  }

  /// The entity in a step's entity position: an id string or a lookup ref.
  func resolveEntity(_ value: JSON) -> UInt32? {
    switch value {
    case let .array(lookup): return resolveLookup(lookup)
    case let .string(s): return s.isEmpty ? nil : symbols.lookup(s) ?? UInt32.max
    default: return nil
    }
  }

  /// Whether `[attr-id, value]` names an attr the store has values for (only such values are
  /// read as lookups).
  func isKnownLookup(_ lookup: [JSON]) -> Bool {
    guard let la = lookup[0].stringValue, let a = symbols.lookup(la) else { return false }
    return aev[a] != nil
  }

  /// A triple step's entity (interning a new id), attr and value (lookup-ref values resolved).
  /// `nil` drops the step: an unresolvable lookup, or an attr the store does not know.
  mutating func resolveTriple(_ step: TxStep) -> (e: UInt32, attr: Attr, v: JSON)? {
    guard let entity = step.entity, let attrId = step.attrID else { return nil }
    let e: UInt32
    switch entity {
    case let .array(lookup):
      guard let resolved = resolveLookup(lookup) else { return nil }
      e = resolved
    case let .string(s):
      guard !s.isEmpty else { return nil }
      e = symbols.intern(s)
    default:
      return nil
    }
    guard let attr = attrs[attrId] else { return nil }
    var v = step.value ?? .null
    if case let .array(lookup) = v, lookup.count == 2, isKnownLookup(lookup) {
      guard let target = resolveLookup(lookup) else { return nil }
      v = .string(symbols[target])
    }
    return (e, attr, v)
  }

  // MARK: Steps

  mutating func mergeTriple(_ step: TxStep) throws(StoreError) {
    guard let (e, attr, patch) = resolveTriple(step) else { return }
    guard attr.isBlob else { throw .mergeIntoLink(attr) }
    guard let a = symbols.lookup(attr.id), let current = slot(e, a)?.first else { return }
    let rec = records[Int(current)]
    let merged = JSONMerge.deepMerge(json(rec.v), patch)
    let t = rec.t.isNaN || rec.t == 0 ? nextClientTime() : rec.t
    replaceSlot(e, a, with: TripleRecord(e: e, a: a, v: key(for: merged), t: t))
  }

  mutating func retractTriple(_ step: TxStep) {
    guard let (e, attr, value) = resolveTriple(step), let a = symbols.lookup(attr.id), let v = existingKey(value)
    else { return }
    if let r = record(e, a, v) { removeRecord(r, .reference) }
    if attr.isRef, let target = v.sym { removeReverse(target, a, e) }
  }

  /// `delete-entity` with the reference client's cascade rules (instaql.md §7).
  ///
  /// The reference recurses into cascades in the middle of its loops; this runs the same steps
  /// in the same order on an explicit stack, so a long cascade chain cannot overflow the native
  /// stack. A cascade cycle recurses forever in JavaScript and ends in "Maximum call stack size
  /// exceeded"; here it ends in the same error once the stack is `maxCascadeDepth` deep.
  mutating func deleteEntity(_ lookup: JSON, etype: JSON?) throws(StoreError) {
    var stack: [DeleteFrame] = [DeleteFrame(lookup: lookup, etype: etype)]
    while let top = stack.last {
      if stack.count > Self.maxCascadeDepth { throw .cascadeCycle }
      var frame = top
      let child = step(&frame)
      stack[stack.count - 1] = frame
      if frame.done {
        stack.removeLast()
      } else if let child {
        stack.append(child)
      }
    }
  }

  static var maxCascadeDepth: Int { 10_000 }

  /// Advances one delete until it finishes or needs a cascade delete first (returned).
  mutating func step(_ f: inout DeleteFrame) -> DeleteFrame? {
    while true {
      switch f.phase {
      case .start:
        switch f.lookup {
        case let .array(l): f.id = resolveLookup(l)
        case let .string(s): f.id = s.isEmpty ? nil : symbols.lookup(s)
        default: f.id = nil
        }
        guard let id = f.id else {
          f.done = true
          return nil
        }
        f.phase = .forward(attrs: (entitySlots(id) ?? []).map(\.attr), index: 0, targets: nil, targetIndex: 0)
      case .forward(let attrList, let index, let targets, let targetIndex):
        let id = f.id!
        guard index < attrList.count else {
          if let slots = entitySlots(id), slots.isEmpty { eav[Int(id)] = nil }
          var pointers: [(e: UInt32, a: UInt32)] = []
          for slot in vae[id] ?? [] { slot.sources.forEach { pointers.append(($0, slot.attr)) } }
          f.phase = .reverse(pointers: pointers, index: 0)
          continue
        }
        let a = attrList[index]
        let attr = attrs[symbols[a]]
        guard let targets else {
          guard slot(id, a) != nil else {
            f.phase = .forward(attrs: attrList, index: index + 1, targets: nil, targetIndex: 0)
            continue
          }
          var list: [JSON] = []
          if let attr, attr.onDeleteReverse == "cascade" {
            list = (slot(id, a) ?? .empty).array.map { json(records[Int($0)].v) }
          }
          f.phase = .forward(attrs: attrList, index: index, targets: list, targetIndex: 0)
          continue
        }
        if targetIndex < targets.count {
          f.phase = .forward(attrs: attrList, index: index, targets: targets, targetIndex: targetIndex + 1)
          let targetEtype: JSON? = attr?.reverseIdentity.map { .string($0.etype) }
          return DeleteFrame(lookup: targets[targetIndex], etype: targetEtype)
        }
        if !f.etypeIsTruthy || attr == nil || f.matches(attr?.forwardIdentity.etype) {
          removeSlot(id, a)
        }
        f.phase = .forward(attrs: attrList, index: index + 1, targets: nil, targetIndex: 0)
      case .reverse(let pointers, let index):
        let id = f.id!
        guard index < pointers.count else {
          if vae[id]?.isEmpty == true { vae[id] = nil }
          f.done = true
          return nil
        }
        let (e, a) = pointers[index]
        f.phase = .reverse(pointers: pointers, index: index + 1)
        let attr = attrs[symbols[a]]
        if !f.etypeIsTruthy || attr == nil || f.matches(attr?.reverseIdentity?.etype) {
          if let r = record(e, a, .sym(id)) { removeRecord(r, .reference) }
          removeReverse(id, a, e)
        }
        if let attr, attr.onDelete == "cascade", f.matches(attr.reverseIdentity?.etype) {
          return DeleteFrame(lookup: .string(symbols[e]), etype: .string(attr.forwardIdentity.etype))
        }
      }
    }
  }
}

/// One pending `delete-entity` on the explicit cascade stack.
struct DeleteFrame {
  enum Phase {
    case start
    /// Walking the entity's attrs; `targets` are the cascade targets of the current attr.
    case forward(attrs: [UInt32], index: Int, targets: [JSON]?, targetIndex: Int)
    /// Walking the links that point at the entity.
    case reverse(pointers: [(e: UInt32, a: UInt32)], index: Int)
  }

  let lookup: JSON
  let etype: JSON?
  var id: UInt32?
  var phase = Phase.start
  var done = false

  init(lookup: JSON, etype: JSON?) {
    self.lookup = lookup
    self.etype = etype
  }

  var etypeIsTruthy: Bool { JSValue(etype).isTruthy }

  /// `attr[...][1] === etype`.
  func matches(_ name: String?) -> Bool {
    guard let name, let etype = etype?.stringValue else { return false }
    return etype == name
  }
}

/// The reference client's `immutableDeepMerge`: objects merge key by key, a `null` in the patch
/// deletes the key, and anything else (arrays, scalars, a non-object on either side) replaces.
enum JSONMerge {
  static func deepMerge(_ target: JSON, _ patch: JSON) -> JSON {
    guard case var .object(result) = target, case let .object(source) = patch else { return patch }
    for (key, value) in source {
      if value.isNull {
        result.removeValue(forKey: key)
        continue
      }
      if case .object = value, let existing = result[key], case .object = existing {
        result[key] = deepMerge(existing, value)
      } else {
        result[key] = value
      }
    }
    return .object(result)
  }
}
