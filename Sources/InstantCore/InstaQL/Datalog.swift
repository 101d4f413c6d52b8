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

/// Planned clauses as a chain: each step knows the step after it, and an `or`'s branches end in
/// the step after the `or`, so the solver follows links instead of keeping a stack of frames.
/// A step is a pattern or an `or`, held in two fields rather than an enum: taking the pattern out
/// of an enum's payload retained it on every call, 8% more instructions on the 100k-item
/// where+order+limit query (2.00M → 2.16M) and 6% on `or`/`and` (callgrind).
final class DatalogStep {
  /// The pattern this step matches; `nil` for an `or`.
  let pattern: Pattern?
  /// An `or`'s branches, each as its first step (`nil` when the branch and everything after it
  /// hold trivially).
  let branches: [DatalogStep?]
  /// The step after a pattern; `nil` when the pattern is the last (an answer is complete).
  let next: DatalogStep?

  init(pattern: Pattern?, branches: [DatalogStep?] = [], next: DatalogStep?) {
    self.pattern = pattern
    self.branches = branches
    self.next = next
  }

  /// `clauses` followed by `next`.
  static func chain(_ clauses: [Clause], then next: DatalogStep? = nil) -> DatalogStep? {
    var step = next
    for clause in clauses.reversed() {
      switch clause {
      case let .pattern(p): step = DatalogStep(pattern: p, next: step)
      case let .or(branches, _):
        step = DatalogStep(pattern: nil, branches: branches.map { chain($0, then: step) }, next: nil)
      }
    }
    return step
  }
}

/// Evaluates planned clauses depth first and collects every `(entity, time)` answer.
///
/// Once the answer's variables are bound, the remaining clauses only need one solution, so the
/// search stops there; the reference enumerates every combination and deduplicates afterwards.
final class DatalogRun {
  /// The answers found so far, for deduplication: open addressing over one buffer with a
  /// multiplicative hash (a `Set` hashed each answer with SipHash; arrays took a uniqueness check
  /// on every write), grown fourfold so a few thousand answers are rehashed a few times, not ten.
  struct AnswerSet: ~Copyable {
    private struct Entry {
      /// `UInt32.max` when the entry is free (no symbol is `UInt32.max`).
      var e: UInt32
      var time: UInt64
    }

    private var table = UnsafeMutableBufferPointer<Entry>(start: nil, count: 0)
    private var count = 0

    deinit { table.deallocate() }

    /// Adds (e, time bits); false when it was there already.
    mutating func insert(_ e: UInt32, _ timeBits: UInt64) -> Bool {
      if 2 * (count + 1) > table.count { grow() }
      let mask = table.count - 1
      var i = Self.slot(e, timeBits, mask)
      while table[i].e != .max {
        if table[i].e == e && table[i].time == timeBits { return false }
        i = (i + 1) & mask
      }
      table[i] = Entry(e: e, time: timeBits)
      count += 1
      return true
    }

    private static func slot(_ e: UInt32, _ timeBits: UInt64, _ mask: Int) -> Int {
      let h = (UInt64(e) &* 0x9E37_79B9_7F4A_7C15) ^ (timeBits &* 0xC2B2_AE3D_27D4_EB4F)
      return Int(truncatingIfNeeded: h >> 32) & mask
    }

    private mutating func grow() {
      let old = table
      table = .allocate(capacity: max(64, old.count * 4))
      table.initialize(repeating: Entry(e: .max, time: 0))
      count = 0
      for entry in old where entry.e != .max { _ = insert(entry.e, entry.time) }
      old.deallocate()
    }
  }

  let store: TripleStore
  /// One slot per variable. `Bound` holds no references, so a raw buffer is enough, and it spares
  /// the exclusivity checks an array property would take on every bind and unbind.
  let bindings: UnsafeMutableBufferPointer<Bound>
  let entityVar: Int
  let timeVar: Int
  // The mutable state below is only touched by this run's own solve, one access at a time: the
  // runtime's exclusivity checks on these class properties were a seventh of a query's
  // instructions (callgrind, the 100k-item where+order+limit query).
  @exclusivity(unchecked) var answers: [(e: UInt32, t: Double)] = []
  @exclusivity(unchecked) var seen = AnswerSet()
  /// When set, the records each answer was derived from (its first derivation): the triples a
  /// client needs to re-evaluate the where clause itself.
  @exclusivity(unchecked) var witnesses: [UInt32: [UInt32]]? = nil
  @exclusivity(unchecked) var trail: [UInt32] = []

  init(store: TripleStore, variableCount: Int, entityVar: Int, timeVar: Int) {
    self.store = store
    self.bindings = .allocate(capacity: variableCount)
    self.bindings.initialize(repeating: .unbound)
    self.entityVar = entityVar
    self.timeVar = timeVar
  }

  deinit { bindings.deallocate() }

  /// Solves from `first` (see ``DatalogStep/chain(_:then:)``).
  func run(_ first: DatalogStep?) throws(QueryFailure) {
    _ = try solve(first)
  }

  var answerBound: Bool {
    if case .unbound = bindings[entityVar] { return false }
    if case .unbound = bindings[timeVar] { return false }
    return true
  }

  /// Returns whether at least one answer was found from `step` on (`nil`: every clause holds).
  func solve(_ step: DatalogStep?) throws(QueryFailure) -> Bool {
    guard let step else {
      emit()
      return true
    }
    let existsOnly = answerBound
    var found = false
    guard let p = step.pattern else {
      for branch in step.branches where try solve(branch) {
        found = true
        if existsOnly { return true }
      }
      return found
    }
    let next = step.next
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
        if try solve(next) {
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
  @inline(__always)
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
  @inline(__always)
  func bind<B: MutableCollection<Bound>>(_ rec: TripleRecord, into bindings: inout B) -> NewBindings? where B.Index == Int {
    var new = NewBindings()
    if case let .variable(i) = e, !Self.bind(i, .key(.sym(rec.e)), &bindings, &new.indices.0) { return nil }
    if case let .variable(i) = v, !Self.bind(i, .key(rec.v), &bindings, &new.indices.1) {
      new.unbind(&bindings)
      return nil
    }
    if !Self.bind(t, .time(rec.t), &bindings, &new.indices.2) {
      new.unbind(&bindings)
      return nil
    }
    return new
  }

  /// Binds variable `i` to `value` (noting it in `slot`) when unbound; otherwise whether it is
  /// bound `===` to `value`.
  @inline(__always)
  private static func bind<B: MutableCollection<Bound>>(
    _ i: Int, _ value: Bound, _ bindings: inout B, _ slot: inout Int
  ) -> Bool where B.Index == Int {
    if case .unbound = bindings[i] {
      bindings[i] = value
      slot = i
      return true
    }
    return bindings[i].strictEquals(value)
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
