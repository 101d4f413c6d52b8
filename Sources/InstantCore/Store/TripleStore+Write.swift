/// How the store writes a triple: the reference client's optimistic store and the server differ
/// here on purpose, and only here.
enum WriteStyle {
  /// The reference client (instaql.md §7): a new triple is created one tick after the newest
  /// triple in the store, an existing (e, a, v) keeps its time, and removals leave emptied value
  /// sets and stale reverse-index entries behind (``IndexUpkeep/reference``).
  case client
  /// The server (docs/protocol.md, "How instant-local applies a transaction"): new triples are created at `now`, a cardinality-one write keeps
  /// the time of the value it replaces, and the indexes stay clean (``IndexUpkeep/clean``).
  case server(now: Double)

  var upkeep: IndexUpkeep {
    switch self {
    case .client: .reference
    case .server: .clean
    }
  }
}

/// What removing a record leaves behind.
enum IndexUpkeep {
  /// As the reference client: an emptied (entity, attr) value set stays present, and reverse
  /// entries are left to the caller (`delete-entity` and retracts remove them, replacing a
  /// cardinality-one ref does not). Reverse `$isNull` can observe both.
  case reference
  /// Nothing empty or stale: emptied slots and entities go, and so does the reverse entry.
  case clean
}

extension TripleStore {
  /// Writes (e, attr, v): a cardinality-one attr keeps only this value; an existing (e, a, v)
  /// stays where it is. `time` overrides the style's creation time.
  mutating func writeTriple(_ e: UInt32, _ attr: Attr, _ v: ValueKey, _ style: WriteStyle, time: Double? = nil) {
    let a = symbols.intern(attr.id)
    let existing = record(e, a, v)
    switch style {
    case .client:
      var t = time ?? existing.map { records[Int($0)].t } ?? .nan
      if t.isNaN { t = nextClientTime() }
      if attr.isCardinalityOne {
        replaceSlot(e, a, with: TripleRecord(e: e, a: a, v: v, t: t))
      } else if let existing {
        records[Int(existing)].t = t
        touched?.entities.insert(e)
        noteTime(t)
      } else {
        insertRecord(e, a, v, t: t, isRef: false)
      }
      if attr.isRef, let target = v.sym { addReverse(target, a, e) }
    case let .server(now):
      let others = attr.isCardinalityOne ? slot(e, a) : nil
      if let existing {
        others?.forEach { if $0 != existing { removeRecord($0, .clean) } }
        return
      }
      let t = time ?? others?.first.map { records[Int($0)].t } ?? now
      others?.forEach { removeRecord($0, .clean) }
      insertRecord(e, a, v, t: t, isRef: attr.isRef)
    }
  }

  /// When the reference client creates an optimistic triple: one tick after the newest triple in
  /// the store or in this batch (an attr change in the batch can rebuild the store with an older
  /// newest triple; the batch's clock does not go back).
  mutating func nextClientTime() -> Double {
    clientClock = max(clientClock, maxTime, 0) + 1
    return clientClock
  }

  /// Adds a new record for (e, a, v) at the end of its slot and of its value list, and, for a ref,
  /// its reverse entry.
  @discardableResult
  mutating func insertRecord(_ e: UInt32, _ a: UInt32, _ v: ValueKey, t: Double, isRef: Bool) -> UInt32 {
    let r = newRecord(TripleRecord(e: e, a: a, v: v, t: t))
    appendToSlot(e, a, r)
    aev[a, default: [:]].append(r, at: v)
    if isRef, let target = v.sym { addReverse(target, a, e) }
    return r
  }

  /// Replaces every value of (e, a) with one record, keeping the slot's position.
  mutating func replaceSlot(_ e: UInt32, _ a: UInt32, with record: TripleRecord) {
    slot(e, a)?.forEach { removeRecord($0, .reference) }
    let r = newRecord(record)
    ensureEntity(e)
    let i = Int(e)
    if let j = eav[i]!.firstIndex(where: { $0.attr == a }) {
      eav[i]![j].triples = .one(r)
    } else {
      eav[i]!.append(AttrSlot(attr: a, seq: takeSeq(), triples: .one(r)))
    }
    aev[a, default: [:]].append(r, at: record.v)
  }

  /// Removes the whole (e, a) slot and its records (no reverse entries: the reference's quirk).
  mutating func removeSlot(_ e: UInt32, _ a: UInt32) {
    guard let slots = entitySlots(e), let j = slots.firstIndex(where: { $0.attr == a }) else { return }
    slots[j].triples.forEach { removeRecord($0, .reference) }
    eav[Int(e)]!.remove(at: j)
  }

  /// Removes record `r` from eav and aev and frees it; `upkeep` says what may stay behind.
  mutating func removeRecord(_ r: UInt32, _ upkeep: IndexUpkeep) {
    let rec = records[Int(r)]
    unindexValue(r)
    let i = Int(rec.e)
    if let j = entitySlots(rec.e)?.firstIndex(where: { $0.attr == rec.a }) {
      eav[i]![j].triples.remove(r)
      if upkeep == .clean {
        if eav[i]![j].triples.isEmpty { eav[i]!.remove(at: j) }
        if eav[i]!.isEmpty { eav[i] = nil }
      }
    }
    if upkeep == .clean, let target = rec.v.sym, attrs[symbols[rec.a]]?.isRef == true {
      if var slots = vae.removeValue(forKey: target), let j = slots.firstIndex(where: { $0.attr == rec.a }) {
        slots[j].sources.remove(rec.e)
        if slots[j].sources.isEmpty { slots.remove(at: j) }
        if !slots.isEmpty { vae[target] = slots }
      }
    }
    freeRecord(r)
  }
}
