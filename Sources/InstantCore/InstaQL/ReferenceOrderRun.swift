/// Evaluates clauses the way the reference does, breadth first and in written order, producing
/// every answer (duplicates included) in the reference's order.
///
/// Only needed when that order can show: JavaScript's `>` is not a consistent ordering between
/// strings and numbers (or objects, or NaN), and then V8's sort result depends on its input order.
/// Everything else uses the faster ``DatalogRun``.
final class ReferenceOrderRun {
  let store: TripleStore
  let variableCount: Int
  private var entityOrder: [UInt32: [UInt32]] = [:]

  init(store: TripleStore, variableCount: Int) {
    self.store = store
    self.variableCount = variableCount
  }

  func run(_ clauses: [Clause], initial: [Bound]) throws(QueryFailure) -> [[Bound]] {
    try fold(clauses, [initial])
  }

  func fold(_ clauses: [Clause], _ start: [[Bound]]) throws(QueryFailure) -> [[Bound]] {
    var contexts = start
    for clause in clauses {
      switch clause {
      case let .or(branches, _):
        var next: [[Bound]] = []
        for branch in branches { next.append(contentsOf: try fold(branch, contexts)) }
        contexts = next
      case let .pattern(p):
        var next: [[Bound]] = []
        for context in contexts {
          for r in try candidates(p, context) {
            if let extended = match(p, r, context) { next.append(extended) }
          }
        }
        contexts = next
      }
    }
    return contexts
  }

  func match(_ p: Pattern, _ r: UInt32, _ context: [Bound]) -> [Bound]? {
    var bindings = context
    return p.bind(store.records[Int(r)], into: &bindings) == nil ? nil : bindings
  }


  /// The entities of `aev[attr]` in the reference's map order.
  func entities(of a: UInt32) -> [UInt32] {
    if let cached = entityOrder[a] { return cached }
    var seen = Set<UInt32>()
    var list: [(UInt32, UInt32)] = []
    for (_, records) in store.aev[a] ?? [:] {
      records.forEach { r in
        let e = store.records[Int(r)].e
        if seen.insert(e).inserted, let slots = store.entitySlots(e), let slot = slots.first(where: { $0.attr == a }) {
          list.append((slot.seq, e))
        }
      }
    }
    let ordered = list.sorted { $0.0 < $1.0 }.map(\.1)
    entityOrder[a] = ordered
    return ordered
  }

  func candidates(_ p: Pattern, _ bindings: [Bound]) throws(QueryFailure) -> [UInt32] {
    guard let a = p.a else { return [] }
    let (entityKnown, entity, filter) = p.actualized(bindings)
    func fromSlot(_ e: UInt32) throws(QueryFailure) -> [UInt32] {
      guard let list = store.slot(e, a) else { return [] }
      guard let filter else { return list.array }
      switch filter {
      case let .equals(keys):
        return keys.compactMap { k in list.array.first { store.records[Int($0)].v == k } }
      case let .failing(message):
        throw .error(message)
      default:
        return list.array.filter { store.accepts(filter, store.records[Int($0)].v) }
      }
    }
    if entityKnown {
      guard let e = entity else { return [] }
      return try fromSlot(e)
    }
    var out: [UInt32] = []
    for e in entities(of: a) { out.append(contentsOf: try fromSlot(e)) }
    return out
  }
}
