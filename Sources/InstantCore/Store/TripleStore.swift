/// InstantDB's triple store: every triple indexed three ways, as the reference client does.
///
/// - `eav`: entity → attr → values (every triple), in insertion order;
/// - `aev`: attr → value → entities (every triple). The reference keys this index attr → entity →
///   value; keying it by value answers the same questions (all triples of an attr, whether an
///   entity has an attr) and also finds an attr's entities by value in O(1), which `where`
///   equality and lookup refs need;
/// - `vae`: target → ref attr → sources (ref triples only), with the reference's stale entries:
///   replacing a cardinality-one ref or deleting the source entity leaves the old entry behind,
///   and reverse `$isNull` sees it, exactly as in the JavaScript client.
///
/// An emptied value set stays present (as a JavaScript `Map` emptied by `delete` does), which
/// `$isNull` can observe. The store is a value type: copies share storage until written.
public struct TripleStore: Sendable {
  public internal(set) var attrs: AttrStore
  /// Whether child links the schema marks as has-one come back as one object instead of an array.
  public var cardinalityInference: Bool
  /// Whether such a link with nothing linked comes back as `null` (the server's object trees:
  /// the reference's `instaql-nodes->object-tree`) rather than left out (the client's results).
  package var absentSingularLinkIsNull = false

  var symbols = SymbolTable()
  var objects: [JSON] = []
  var records: ContiguousArray<TripleRecord> = []
  var freeRecords: [UInt32] = []
  /// Indexed by entity symbol; `nil` where the symbol is not an entity.
  var eav: [[AttrSlot]?] = []
  var aev: [UInt32: ValueIndex] = [:]
  var vae: [UInt32: [ReverseSlot]] = [:]
  /// Insertion counter for slots and entities (JavaScript `Map` order).
  var nextSeq: UInt32 = 0
  /// For each entity symbol, when it entered `eav` (its position in the reference's map).
  var entitySeq: [UInt32] = []
  /// For each entity symbol, its id parsed as a UUID (for the id tie-break in ordering).
  var entityUUID: [UUIDBits] = []
  /// The latest creation time in the store; new triples are created after it.
  var maxTime: Double = -.infinity
  /// The reference client's clock for optimistic triples: the newest time when a batch starts,
  /// one tick later for each triple created (see ``nextClientTime()``).
  var clientClock: Double = -.infinity
  /// The number of live triples.
  public private(set) var count = 0
  /// Records created and removed while a server transaction runs (see `applyServerTransaction`).
  var journal: ChangeJournal?
  /// While tracked (``trackTouched()``), the entities whose triples were written or removed, and
  /// whether the whole store was rebuilt (then any entity may have changed).
  var touched: (entities: Set<UInt32>, everything: Bool)?
  /// Compiled queries, shared with this store's copies (each plan checks it still holds).
  var plans = QueryPlanCache()

  /// Builds a store from triples, as `createStore` does: triples whose attr is unknown are dropped,
  /// and a repeated (entity, attr, value) keeps its first position with the later time.
  public init(attrs: AttrStore, triples: some Sequence<Triple> = [], cardinalityInference: Bool = false) {
    self.attrs = attrs
    self.cardinalityInference = cardinalityInference
    for triple in triples { index(triple) }
    trimCapacity()
  }

  /// Reads wire triples (`[e, a, v]` or `[e, a, v, t]`); rows that are not triples are refused.
  public init(attrs: AttrStore, tripleRows: [JSON], cardinalityInference: Bool = false) throws(StoreError) {
    self.init(attrs: attrs, cardinalityInference: cardinalityInference)
    records.reserveCapacity(tripleRows.count)
    for (i, row) in tripleRows.enumerated() {
      guard let triple = Triple(json: row) else {
        throw .invalidTriple(i, row)
      }
      index(triple)
    }
    trimCapacity()
  }

  // MARK: Reading

  /// Every live triple, entity by entity, each entity's attrs and values in insertion order.
  public var triples: [Triple] {
    var out: [Triple] = []
    out.reserveCapacity(count)
    for e in entitiesInOrder {
      for slot in eav[Int(e)]! { slot.triples.forEach { out.append(triple(at: $0)) } }
    }
    return out
  }

  /// Every entity with triples, in the order it entered the store.
  var entitiesInOrder: [UInt32] {
    var list: [UInt32] = []
    for (e, slots) in eav.enumerated() where slots != nil { list.append(UInt32(e)) }
    return list.sorted { entitySeq[Int($0)] < entitySeq[Int($1)] }
  }

  /// Starts noting which entities the store's writes touch (``takeTouched()``).
  package mutating func trackTouched() { touched = ([], false) }

  /// The ids of the entities written since ``trackTouched()``, and stops noting them; `nil` when
  /// not noted, or when the store was rebuilt since (any entity may have changed).
  package mutating func takeTouched() -> Set<String>? {
    defer { touched = nil }
    guard let touched, !touched.everything else { return nil }
    let symbols = self.symbols
    return Set(touched.entities.lazy.filter { $0 != TripleRecord.deadEntity }.map { symbols[$0] })
  }

  /// The triples of one entity.
  public func triples(of entity: String) -> [Triple] {
    guard let e = symbols.lookup(entity), let slots = entitySlots(e) else { return [] }
    var out: [Triple] = []
    for slot in slots { slot.triples.forEach { out.append(triple(at: $0)) } }
    return out
  }

  /// The values entity `entity` has for attr `attr`, in insertion order.
  public func values(of entity: String, attr: String) -> [JSON] {
    guard let e = symbols.lookup(entity), let a = symbols.lookup(attr), let list = slot(e, a) else { return [] }
    return list.array.map { json(records[Int($0)].v) }
  }

  /// Whether `entity` has any triple of the `etype` namespace's id attr (it is "in" that namespace).
  public func hasEntity(_ entity: String, etype: String) -> Bool {
    guard let idAttr = attrs.primaryKey(etype), let e = symbols.lookup(entity), let a = symbols.lookup(idAttr.id)
    else { return false }
    return slot(e, a) != nil
  }

  func triple(at index: UInt32) -> Triple {
    let r = records[Int(index)]
    return Triple(symbols[r.e], symbols[r.a], json(r.v), r.t.isNaN ? nil : r.t)
  }

  func json(_ key: ValueKey) -> JSON {
    switch key {
    case .null: return .null
    case let .bool(b): return .bool(b)
    case let .number(n): return .number(n)
    case let .sym(s): return .string(symbols[s])
    case let .obj(o): return objects[Int(o)]
    }
  }

  /// The ordering key of an entity's id (`uuidCompare`).
  func uuidKey(_ e: UInt32) -> UUIDKey {
    let bits = Int(e) < entityUUID.count ? entityUUID[Int(e)] : .invalid
    return UUIDKey(bits: bits.isValid ? bits : UUIDBits(symbols[e]), id: symbols[e])
  }

  @inline(__always)
  func entitySlots(_ e: UInt32) -> [AttrSlot]? {
    Int(e) < eav.count ? eav[Int(e)] : nil
  }

  /// The (entity, attr) value list; `.empty` when present but emptied, `nil` when absent.
  /// Inlined: called from the solver's candidate loop, a call copied the whole store value out of
  /// the run that holds it (a 232-byte `memcpy` per matching item, seen in the disassembly).
  @inline(__always)
  func slot(_ e: UInt32, _ a: UInt32) -> IndexList? {
    guard let slots = entitySlots(e) else { return nil }
    for slot in slots where slot.attr == a { return slot.triples }
    return nil
  }

  /// The record of (e, a, v), if present.
  func record(_ e: UInt32, _ a: UInt32, _ v: ValueKey) -> UInt32? {
    guard let list = slot(e, a) else { return nil }
    switch list {
    case .empty: return nil
    case let .one(i): return records[Int(i)].v == v ? i : nil
    case let .many(all): return all.first { records[Int($0)].v == v }
    }
  }

  /// The key a query or step value maps to; `nil` when no stored value can equal it.
  func existingKey(_ value: JSON) -> ValueKey? {
    switch value {
    case .null: return .null
    case let .bool(b): return .bool(b)
    case let .number(n): return .number(normalizing: n)
    case let .string(s): return symbols.lookup(s).map(ValueKey.sym)
    case .array, .object: return nil
    }
  }

  mutating func key(for value: JSON) -> ValueKey {
    switch value {
    case .null: return .null
    case let .bool(b): return .bool(b)
    case let .number(n): return .number(normalizing: n)
    case let .string(s): return .sym(symbols.intern(s))
    case .array, .object:
      objects.append(value)
      return .obj(UInt32(objects.count - 1))
    }
  }

  // MARK: Writing (index level)

  /// Adds a triple the way `createStore` indexes one: no cardinality rules; an existing
  /// (e, a, v) takes the new time in place.
  @discardableResult
  mutating func index(_ triple: Triple) -> Bool {
    guard let attr = attrs[triple.attr] else { return false }
    let e = symbols.intern(triple.entity)
    let a = symbols.intern(triple.attr)
    let v = key(for: triple.value)
    let t = triple.createdAt ?? .nan
    if let existing = record(e, a, v) {
      records[Int(existing)].t = t
      touched?.entities.insert(e)
      noteTime(t)
      return true
    }
    insertRecord(e, a, v, t: t, isRef: attr.isRef)
    return true
  }

  mutating func noteTime(_ t: Double) {
    if t > maxTime { maxTime = t }
  }

  mutating func newRecord(_ record: TripleRecord) -> UInt32 {
    noteTime(record.t)
    count += 1
    let r: UInt32
    if let free = freeRecords.popLast() {
      records[Int(free)] = record
      r = free
    } else {
      records.append(record)
      r = UInt32(records.count - 1)
    }
    journal?.created.insert(r)
    touched?.entities.insert(record.e)
    return r
  }

  mutating func freeRecord(_ r: UInt32) {
    touched?.entities.insert(records[Int(r)].e)
    if journal != nil {
      if journal!.created.remove(r) == nil { journal!.removed.append(triple(at: r)) }
    }
    records[Int(r)].e = TripleRecord.deadEntity
    freeRecords.append(r)
    count -= 1
  }

  mutating func ensureEntity(_ e: UInt32) {
    if Int(e) >= eav.count {
      // Grown by half (appending would double each array's capacity besides), reserved exactly:
      // these arrays hold a slot for every symbol up to the newest entity's.
      let size = max(Int(e) + 1, eav.count + eav.count / 2)
      eav.reserveCapacity(size)
      entitySeq.reserveCapacity(size)
      entityUUID.reserveCapacity(size)
      eav.append(contentsOf: repeatElement(nil, count: size - eav.count))
      entitySeq.append(contentsOf: repeatElement(0, count: size - entitySeq.count))
      entityUUID.append(contentsOf: repeatElement(.invalid, count: size - entityUUID.count))
    }
    if eav[Int(e)] == nil {
      eav[Int(e)] = []
      entitySeq[Int(e)] = takeSeq()
      entityUUID[Int(e)] = UUIDBits(symbols[e])
    }
  }

  mutating func takeSeq() -> UInt32 {
    nextSeq &+= 1
    return nextSeq
  }

  mutating func appendToSlot(_ e: UInt32, _ a: UInt32, _ r: UInt32) {
    ensureEntity(e)
    let i = Int(e)
    if let j = eav[i]!.firstIndex(where: { $0.attr == a }) {
      eav[i]![j].triples.append(r)
    } else {
      let seq = takeSeq()
      eav[i]!.append(AttrSlot(attr: a, seq: seq, triples: .one(r)))
    }
  }

  mutating func addReverse(_ target: UInt32, _ a: UInt32, _ source: UInt32) {
    var slots = vae.removeValue(forKey: target) ?? []
    if let j = slots.firstIndex(where: { $0.attr == a }) {
      if !slots[j].sources.contains(source) { slots[j].sources.append(source) }
    } else {
      slots.append(ReverseSlot(attr: a, sources: .one(source)))
    }
    vae[target] = slots
  }

  /// Removes `source` from `vae[target][a]`, leaving an emptied slot present.
  mutating func removeReverse(_ target: UInt32, _ a: UInt32, _ source: UInt32) {
    guard var slots = vae.removeValue(forKey: target) else { return }
    if let j = slots.firstIndex(where: { $0.attr == a }) { slots[j].sources.remove(source) }
    vae[target] = slots
  }

  /// Removes record `r` from the aev index.
  mutating func unindexValue(_ r: UInt32) {
    let rec = records[Int(r)]
    aev[rec.a]?[rec.v]?.remove(r)
    if aev[rec.a]?[rec.v]?.isEmpty == true { aev[rec.a]?[rec.v] = nil }
  }

  /// Rebuilds every index from the live triples (after an attr is updated or deleted), which
  /// also clears stale reverse entries and emptied slots, as the reference does.
  mutating func rebuild(keeping keep: (Triple) -> Bool = { _ in true }) {
    let all = triples.filter(keep)
    let attrs = self.attrs
    let inference = cardinalityInference
    let absentIsNull = absentSingularLinkIsNull
    let clock = clientClock
    let tracked = touched != nil
    self = TripleStore(attrs: attrs, cardinalityInference: inference)
    absentSingularLinkIsNull = absentIsNull
    clientClock = clock
    if tracked { touched = ([], true) }
    for t in all { index(t) }
    trimCapacity()
  }

  /// Gives each long list of the aev and vae indexes the room it uses and no more (a list grown by
  /// appending keeps up to half its room unused), after many triples were indexed at once.
  mutating func trimCapacity() {
    for a in Array(aev.keys) { aev[a]!.trimLists() }
    for target in Array(vae.keys) {
      for j in vae[target]!.indices { vae[target]![j].sources.trim() }
    }
  }
}

/// What a server transaction changed, for persisting it.
struct ChangeJournal: Sendable {
  var created: Set<UInt32> = []
  var removed: [Triple] = []
}
