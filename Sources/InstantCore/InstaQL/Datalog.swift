/// A variable's value during evaluation. `time` holds a creation time (NaN: none), which
/// JavaScript compares with `===` like any number.
enum Bound: Equatable {
  case unbound
  case key(ValueKey)
  case time(Double)

  func strictEquals(_ other: Bound) -> Bool {
    switch (self, other) {
    case let (.key(a), .key(b)): return a == b
    case let (.time(a), .time(b)): return a == b || (a.isNaN && b.isNaN)
    case let (.key(.number(a)), .time(b)), let (.time(b), .key(.number(a))): return a == b
    default: return false
    }
  }
}

/// Orders a conjunction of clauses so each step can use an index: patterns whose entity is known
/// first, then ones with a value to look up, scans last. The result is the same set of answers in
/// any order (patterns only filter and join), so this only changes the cost, never the answer.
enum Planner {
  static func plan(_ clauses: [Clause], bound: Set<Int>) -> (clauses: [Clause], bound: Set<Int>) {
    var remaining = clauses
    var bound = bound
    var out: [Clause] = []
    out.reserveCapacity(clauses.count)
    while !remaining.isEmpty {
      var best = 0
      var bestScore = Int.min
      for (i, clause) in remaining.enumerated() {
        let s = score(clause, bound)
        if s > bestScore {
          bestScore = s
          best = i
        }
      }
      var chosen = remaining.remove(at: best)
      switch chosen {
      case let .pattern(p):
        bound.formUnion(variables(of: p))
      case let .or(branches, join):
        var planned: [[Clause]] = []
        var common: Set<Int>? = nil
        for branch in branches {
          let (clauses, after) = plan(branch, bound: bound)
          planned.append(clauses)
          common = common.map { $0.intersection(after) } ?? after
        }
        chosen = .or(planned, join: join)
        bound.formUnion(common ?? bound)
      }
      out.append(chosen)
    }
    return (out, bound)
  }

  static func variables(of p: Pattern) -> Set<Int> {
    var vars: Set<Int> = [p.t]
    if case let .variable(i) = p.e { vars.insert(i) }
    if case let .variable(i) = p.v { vars.insert(i) }
    return vars
  }

  static func score(_ clause: Clause, _ bound: Set<Int>) -> Int {
    switch clause {
    case let .or(branches, join):
      if bound.contains(join) { return 95 }
      // Each branch is enumerated on its own, so the `or` is as cheap a way in as its costliest
      // branch's best first clause (`title = "x"` or `pageCount > n` beats a scan of every
      // entity); a plain clause as good goes first.
      let entry = branches.map { branch in branch.map { score($0, bound) }.max() ?? 0 }.min() ?? 0
      return max(5, entry - 1)
    case let .pattern(p):
      let eBound: Bool
      switch p.e {
      case let .variable(i): eBound = bound.contains(i)
      case .entity, .nothing: eBound = true
      }
      var vBound = true
      var vLookup = false
      switch p.v {
      case let .variable(i):
        vBound = bound.contains(i)
        vLookup = vBound
      case .equals, .nothing, .failing: vLookup = true
      case .not, .isNull, .compare: vLookup = false
      }
      if eBound && vBound { return 100 }
      if eBound { return 90 }
      if vLookup { return 70 }
      if vBound { return 20 }
      return 10
    }
  }
}

/// Evaluates planned clauses depth first and collects every `(entity, time)` answer.
///
/// Once the answer's variables are bound, the remaining clauses only need one solution, so the
/// search stops there; the reference enumerates every combination and deduplicates afterwards.
final class DatalogRun {
  /// The answers found so far, for deduplication: open addressing with a multiplicative hash
  /// (a `Set` hashed each answer with SipHash and regrew from empty on every run).
  struct AnswerSet {
    private var entities: [UInt32] = []
    private var times: [UInt64] = []
    private var count = 0

    /// Adds (e, time bits); false when it was there already. `e` is never `UInt32.max` (a symbol).
    mutating func insert(_ e: UInt32, _ timeBits: UInt64) -> Bool {
      if 2 * (count + 1) > entities.count { grow() }
      let mask = entities.count - 1
      var i = Self.slot(e, timeBits, mask)
      while entities[i] != .max {
        if entities[i] == e && times[i] == timeBits { return false }
        i = (i + 1) & mask
      }
      entities[i] = e
      times[i] = timeBits
      count += 1
      return true
    }

    private static func slot(_ e: UInt32, _ timeBits: UInt64, _ mask: Int) -> Int {
      let h = (UInt64(e) &* 0x9E37_79B9_7F4A_7C15) ^ (timeBits &* 0xC2B2_AE3D_27D4_EB4F)
      return Int(truncatingIfNeeded: h >> 32) & mask
    }

    private mutating func grow() {
      let (oldEntities, oldTimes) = (entities, times)
      let capacity = max(16, oldEntities.count * 2)
      entities = Array(repeating: .max, count: capacity)
      times = Array(repeating: 0, count: capacity)
      count = 0
      for i in oldEntities.indices where oldEntities[i] != .max { _ = insert(oldEntities[i], oldTimes[i]) }
    }
  }

  let store: TripleStore
  /// One slot per variable. `Bound` holds no references, so a raw buffer is enough, and it spares
  /// the exclusivity checks an array property would take on every bind and unbind.
  let bindings: UnsafeMutableBufferPointer<Bound>
  let entityVar: Int
  let timeVar: Int
  var answers: [(e: UInt32, t: Double)] = []
  var seen = AnswerSet()
  /// When set, the records each answer was derived from (its first derivation): the triples a
  /// client needs to re-evaluate the where clause itself.
  var witnesses: [UInt32: [UInt32]]? = nil
  var trail: [UInt32] = []

  init(store: TripleStore, variableCount: Int, entityVar: Int, timeVar: Int) {
    self.store = store
    self.bindings = .allocate(capacity: variableCount)
    self.bindings.initialize(repeating: .unbound)
    self.entityVar = entityVar
    self.timeVar = timeVar
  }

  deinit { bindings.deallocate() }

  func run(_ clauses: [Clause]) throws(QueryFailure) {
    var frames: [(clauses: [Clause], index: Int)] = [(clauses, 0)]
    _ = try solve(&frames)
  }

  var answerBound: Bool {
    if case .unbound = bindings[entityVar] { return false }
    if case .unbound = bindings[timeVar] { return false }
    return true
  }

  /// Returns whether at least one answer was found below this point.
  func solve(_ frames: inout [(clauses: [Clause], index: Int)]) throws(QueryFailure) -> Bool {
    let depth = frames.count - 1
    guard depth >= 0 else {
      emit()
      return true
    }
    let index = frames[depth].index
    if index == frames[depth].clauses.count {
      let saved = frames.removeLast()
      defer { frames.append(saved) }
      return try solve(&frames)
    }
    let existsOnly = answerBound
    let clause = frames[depth].clauses[index]
    frames[depth].index += 1
    defer { frames[depth].index -= 1 }
    var found = false
    switch clause {
    case let .or(branches, _):
      for branch in branches {
        frames.append((branch, 0))
        let hit = try solve(&frames)
        frames.removeLast()
        if hit {
          found = true
          if existsOnly { return true }
        }
      }
    case let .pattern(p):
      var failure: QueryFailure?
      var bindings = self.bindings
      try forEachCandidate(p) { r in
        let rec = store.records[Int(r)]
        guard let newlyBound = p.bind(rec, into: &bindings) else { return false }
        defer { newlyBound.unbind(&bindings) }
        let trailMark = trail.count
        if witnesses != nil {
          trail.append(r)
          if case let .isNull(attr?, false, reverse) = p.v { trail.append(contentsOf: store.presenceRecords(rec.v, attr, reverse)) }
        }
        defer { if witnesses != nil { trail.removeSubrange(trailMark...) } }
        do throws(QueryFailure) {
          if try solve(&frames) {
            found = true
            if existsOnly { return true }
          }
        } catch {
          failure = error
          return true
        }
        return false
      }
      if let failure { throw failure }
    }
    return found
  }

  func emit() {
    guard case let .key(.sym(e)) = bindings[entityVar] else { return }
    var t = Double.nan
    switch bindings[timeVar] {
    case let .time(x): t = x
    case let .key(.number(x)): t = x
    default: break
    }
    let bits = t.isNaN ? UInt64.max : (t == 0 ? 0 : t.bitPattern)
    guard seen.insert(e, bits) else { return }
    if witnesses != nil, witnesses![e] == nil { witnesses![e] = trail }
    answers.append((e, t))
  }

  /// The records a pattern can match given the current bindings, as the reference's
  /// `getTriples` picks them (by which of entity and value are known).
  func forEachCandidate(_ p: Pattern, _ body: (UInt32) -> Bool) throws(QueryFailure) {
    guard let a = p.a else { return }
    if case let .variable(i) = p.v, bindings[i] != .unbound {
      // A bound value is the filter `.equals([key])` (or `.equals([])`), read without building it.
      let key: ValueKey
      switch bindings[i] {
      case let .key(k): key = k
      case let .time(t):
        if t.isNaN { return }
        key = .number(normalizing: t)
      case .unbound: return
      }
      let (entityKnown, entity) = p.entity(bindings)
      if entityKnown {
        guard let e = entity, let list = store.slot(e, a) else { return }
        list.forEachUntil { r in store.records[Int(r)].v == key && body(r) }
      } else {
        store.aev[a]?[key]?.forEachUntil(body)
      }
      return
    }
    let (entityKnown, entity, filter) = p.actualized(bindings)
    if entityKnown {
      guard let e = entity, let list = store.slot(e, a) else { return }
      guard let filter else {
        list.forEachUntil(body)
        return
      }
      if case let .failing(message) = filter { throw .error(message) }
      switch list {
      case .empty: return
      case let .one(r):
        if store.accepts(filter, store.records[Int(r)].v) { _ = body(r) }
      case let .many(all):
        for r in all where store.accepts(filter, store.records[Int(r)].v) {
          if body(r) { return }
        }
      }
      return
    }
    guard let byValue = store.aev[a] else { return }
    guard let filter else {
      for (_, list) in byValue where list.forEachUntil(body) { return }
      return
    }
    switch filter {
    case let .equals(keys):
      for k in keys {
        if let list = byValue[k], list.forEachUntil(body) { return }
      }
    case .nothing:
      return
    case let .failing(message):
      if !byValue.isEmpty { throw .error(message) }
    default:
      for (k, list) in byValue where store.accepts(filter, k) {
        if list.forEachUntil(body) { return }
      }
    }
  }
}

/// The variables one match bound, so a depth-first search can take them back.
struct NewBindings {
  var indices: (Int, Int, Int) = (-1, -1, -1)

  func unbind<B: MutableCollection<Bound>>(_ bindings: inout B) where B.Index == Int {
    if indices.0 >= 0 { bindings[indices.0] = .unbound }
    if indices.1 >= 0 { bindings[indices.1] = .unbound }
    if indices.2 >= 0 { bindings[indices.2] = .unbound }
  }
}

extension Pattern {
  /// Matches a record against the pattern's variables as the reference's `matchPattern` does
  /// (entity, then value, then time; a bound variable must be `===`): binds the unbound ones and
  /// returns them, or returns `nil` and leaves `bindings` as it was.
  func bind<B: MutableCollection<Bound>>(_ rec: TripleRecord, into bindings: inout B) -> NewBindings? where B.Index == Int {
    var new = NewBindings()
    func bind(_ i: Int, _ value: Bound, _ slot: inout Int) -> Bool {
      if case .unbound = bindings[i] {
        bindings[i] = value
        slot = i
        return true
      }
      return bindings[i].strictEquals(value)
    }
    if case let .variable(i) = e, !bind(i, .key(.sym(rec.e)), &new.indices.0) { return nil }
    if case let .variable(i) = v, !bind(i, .key(rec.v), &new.indices.1) {
      new.unbind(&bindings)
      return nil
    }
    if !bind(t, .time(rec.t), &new.indices.2) {
      new.unbind(&bindings)
      return nil
    }
    return new
  }

  /// Whether the pattern's entity is known under `bindings`, and which (`nil` when it cannot be an entity).
  func entity<B: Collection<Bound>>(_ bindings: B) -> (known: Bool, entity: UInt32?) where B.Index == Int {
    switch e {
    case let .variable(i):
      switch bindings[i] {
      case .unbound: return (false, nil)
      case let .key(k): return (true, k.sym)
      case .time: return (true, nil)
      }
    case let .entity(s): return (true, s)
    case .nothing: return (true, nil)
    }
  }

  /// The pattern's entity and value under `bindings`, as the reference's `actualize` sees them:
  /// whether the entity is known (and which, `nil` when it cannot be an entity), and the filter on
  /// the value (`nil` when unbound).
  func actualized<B: Collection<Bound>>(_ bindings: B) -> (entityKnown: Bool, entity: UInt32?, filter: ValueTerm?)
  where B.Index == Int {
    let (entityKnown, entity) = self.entity(bindings)
    var filter: ValueTerm? = v
    if case let .variable(i) = v {
      switch bindings[i] {
      case .unbound: filter = nil
      case let .key(k): filter = .equals([k])
      case let .time(t): filter = t.isNaN ? .equals([]) : .equals([.number(normalizing: t)])
      }
    }
    return (entityKnown, entity, filter)
  }
}

extension TripleStore {
  /// The records that show `attr` is present on `candidate` (or, reversed, that something points at it).
  func presenceRecords(_ candidate: ValueKey, _ attr: UInt32, _ reverse: Bool) -> [UInt32] {
    guard let c = candidate.sym else { return [] }
    if !reverse { return slot(c, attr)?.array ?? [] }
    var out: [UInt32] = []
    for slot in vae[c] ?? [] where slot.attr == attr {
      slot.sources.forEach { source in if let r = record(source, attr, candidate) { out.append(r) } }
    }
    return out
  }

  /// `triplesByValue` for one stored value.
  func accepts(_ filter: ValueTerm, _ v: ValueKey) -> Bool {
    switch filter {
    case let .equals(keys): return keys.contains(v)
    case let .not(operand): return operand != v
    case let .isNull(attr, isNull, reverse):
      let valueIsNull: Bool
      if reverse {
        if let target = v.sym, let slots = vae[target], let attr {
          valueIsNull = !slots.contains { $0.attr == attr }
        } else {
          valueIsNull = true
        }
      } else {
        if let attr, aev[attr] != nil, let candidate = v.sym, let list = slot(candidate, attr) {
          var hasNull = false
          list.forEach { if records[Int($0)].v == .null { hasNull = true } }
          valueIsNull = hasNull
        } else {
          valueIsNull = true
        }
      }
      return isNull ? valueIsNull : !valueIsNull
    case let .compare(predicate): return predicate.test(jsValue(v))
    case .variable, .nothing, .failing: return false
    }
  }

  /// A stored value as JavaScript sees it.
  func jsValue(_ key: ValueKey) -> JSValue {
    switch key {
    case .null: return .null
    case let .bool(b): return .bool(b)
    case let .number(n): return .number(n)
    case let .sym(s): return .string(symbols[s])
    case let .obj(o): return .object(objects[Int(o)], identity: Int(o))
    }
  }
}
