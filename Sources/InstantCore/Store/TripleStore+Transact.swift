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
  /// The batch is atomic: if a step throws, the store is left exactly as it was.
  public mutating func transact(_ steps: [JSON]) throws(StoreError) {
    var draft = self
    let kept = steps.filter { draft.passesModeCheck($0) }
    var clock = draft.maxTime
    for step in kept {
      try draft.apply(step, clock: &clock)
    }
    self = draft
  }

  /// Applies one step (no mode pre-filter).
  public mutating func apply(_ step: JSON) throws(StoreError) {
    var clock = maxTime
    try apply(step, clock: &clock)
  }

  func passesModeCheck(_ step: JSON) -> Bool {
    guard let parts = step.arrayValue, let action = parts.first?.stringValue,
      action == "add-triple" || action == "deep-merge-triple"
    else { return true }
    let mode = parts.count > 4 ? parts[4]["mode"]?.stringValue : nil
    guard mode == "create" || mode == "update" else { return true }
    var exists = false
    if parts.count > 2, let attrId = parts[2].stringValue, let attr = attrs[attrId],
      let idAttr = attrs.primaryKey(attr.forwardIdentity.etype)
    {
      let eid = parts.count > 1 ? parts[1] : .null
      if let e = resolveEntity(eid), let a = symbols.lookup(idAttr.id) {
        // The reference resolves the id triple's value too; a lookup value that cannot be
        // resolved makes the entity count as missing.
        if case let .array(lookup) = eid, lookup.count == 2, let la = lookup[0].stringValue,
          symbols.lookup(la).flatMap({ aev[$0] }) != nil, resolveLookup(lookup) == nil
        {
          exists = false
        } else {
          exists = slot(e, a) != nil
        }
      }
    }
    if mode == "create" && exists { return false }
    if mode == "update" && !exists { return false }
    return true
  }

  mutating func apply(_ step: JSON, clock: inout Double) throws(StoreError) {
    guard let parts = step.arrayValue, let action = parts.first?.stringValue else {
      throw StoreError("unhandled transaction action: \(step.arrayValue?.first ?? step)")
    }
    let args = Array(parts.dropFirst())
    switch action {
    case "add-triple": addTriple(args, clock: &clock)
    case "deep-merge-triple": try mergeTriple(args, clock: &clock)
    case "retract-triple": retractTriple(args)
    case "delete-entity": try deleteEntity(args.first ?? .null, etype: args.count > 1 ? args[1] : nil)
    case "add-attr":
      guard let attrJSON = args.first else { throw StoreError("add-attr without an attr") }
      do throws(Attr.Invalid) { attrs.add(try Attr(json: attrJSON)) } catch { throw StoreError(error.description) }
    case "delete-attr":
      guard let id = args.first?.stringValue, attrs[id] != nil else { return }
      attrs.remove(id: id)
      rebuild { $0.attr != id }
    case "update-attr":
      guard let partial = args.first?.objectValue, let id = partial["id"]?.stringValue, attrs[id] != nil else { return }
      do throws(Attr.Invalid) { try attrs.update(partial) } catch { throw StoreError(error.description) }
      rebuild()
    case "restore-attr", "rule-params":
      return
    default:
      throw StoreError("unhandled transaction action: \(action)")
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

  /// Resolves a step's entity (interning a new id) and, for lookup-ref values, its value.
  /// `nil` means the step is dropped.
  mutating func resolveStep(_ args: [JSON]) -> (e: UInt32, a: String, v: JSON)? {
    guard args.count >= 2 else { return nil }
    let e: UInt32
    switch args[0] {
    case let .array(lookup):
      guard let resolved = resolveLookup(lookup) else { return nil }
      e = resolved
    case let .string(s):
      guard !s.isEmpty else { return nil }
      e = symbols.intern(s)
    default:
      return nil
    }
    guard let a = args[1].stringValue else { return nil }
    var v = args.count > 2 ? args[2] : .null
    if case let .array(lookup) = v, lookup.count == 2, let la = lookup[0].stringValue,
      symbols.lookup(la).flatMap({ aev[$0] }) != nil
    {
      guard let target = resolveLookup(lookup) else { return nil }
      v = .string(symbols[target])
    }
    return (e, a, v)
  }

  // MARK: Steps

  mutating func nextTime(_ clock: inout Double) -> Double {
    clock = max(clock, maxTime, 0) + 1
    return clock
  }

  mutating func addTriple(_ args: [JSON], clock: inout Double) {
    guard let (e, attrId, value) = resolveStep(args), let attr = attrs[attrId] else { return }
    let a = symbols.intern(attrId)
    let v = key(for: value)
    // An existing (e, a, v) keeps its time (`existing.t ?? new`), so updates do not reorder.
    var t = Double.nan
    if let existing = record(e, a, v) { t = records[Int(existing)].t }
    if t.isNaN { t = nextTime(&clock) }
    if attr.isCardinalityOne {
      replaceSlot(e, a, with: TripleRecord(e: e, a: a, v: v, t: t))
    } else if let existing = record(e, a, v) {
      records[Int(existing)].t = t
      noteTime(t)
    } else {
      let r = newRecord(TripleRecord(e: e, a: a, v: v, t: t))
      appendToSlot(e, a, r)
      aev[a, default: [:]][v, default: .empty].append(r)
    }
    if attr.isRef, let target = v.sym { addReverse(target, a, e) }
  }

  /// Replaces every value of (e, a) with one record, keeping the slot's position.
  mutating func replaceSlot(_ e: UInt32, _ a: UInt32, with record: TripleRecord) {
    if let old = slot(e, a) {
      old.forEach { r in
        unindexValue(r)
        freeRecord(r)
      }
    }
    let r = newRecord(record)
    ensureEntity(e)
    let i = Int(e)
    if let j = eav[i]!.firstIndex(where: { $0.attr == a }) {
      eav[i]![j].triples = .one(r)
    } else {
      let seq = takeSeq()
      eav[i]!.append(AttrSlot(attr: a, seq: seq, triples: .one(r)))
    }
    aev[a, default: [:]][record.v, default: .empty].append(r)
  }

  mutating func mergeTriple(_ args: [JSON], clock: inout Double) throws(StoreError) {
    guard let (e, attrId, patch) = resolveStep(args), let attr = attrs[attrId] else { return }
    guard attr.isBlob else { throw StoreError("merge operation is not supported for links") }
    guard let a = symbols.lookup(attrId), let list = slot(e, a), let current = list.first else { return }
    let rec = records[Int(current)]
    let merged = JSONMerge.deepMerge(json(rec.v), patch)
    var t = rec.t
    if t.isNaN || t == 0 { t = nextTime(&clock) }
    replaceSlot(e, a, with: TripleRecord(e: e, a: a, v: key(for: merged), t: t))
  }

  mutating func retractTriple(_ args: [JSON]) {
    guard let (e, attrId, value) = resolveStep(args), let attr = attrs[attrId], let a = symbols.lookup(attrId),
      let v = existingKey(value)
    else { return }
    if let r = record(e, a, v) {
      unindexValue(r)
      freeRecord(r)
      let i = Int(e)
      if let j = eav[i]!.firstIndex(where: { $0.attr == a }) { eav[i]![j].triples.remove(r) }
    }
    if attr.isRef, let target = v.sym { removeReverse(target, a, e) }
  }

  /// Removes the whole (e, a) slot (and its records) from eav and aev.
  mutating func removeSlot(_ e: UInt32, _ a: UInt32) {
    guard let slots = entitySlots(e), let j = slots.firstIndex(where: { $0.attr == a }) else { return }
    slots[j].triples.forEach { r in
      unindexValue(r)
      freeRecord(r)
    }
    eav[Int(e)]!.remove(at: j)
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
      if stack.count > Self.maxCascadeDepth { throw StoreError("Maximum call stack size exceeded") }
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
          if let r = record(e, a, .sym(id)) {
            unindexValue(r)
            freeRecord(r)
            if let j = eav[Int(e)]!.firstIndex(where: { $0.attr == a }) { eav[Int(e)]![j].triples.remove(r) }
          }
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
public enum JSONMerge {
  public static func deepMerge(_ target: JSON, _ patch: JSON) -> JSON {
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
