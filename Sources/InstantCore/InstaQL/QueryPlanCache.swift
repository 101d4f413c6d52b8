import Foundation
import OrderedCollections

/// The compiled forms of the queries last run on a store (and on its copies), so evaluating the
/// same query again skips parsing `where`, planning, resolving labels and attrs, and choosing the
/// attrs each object shows. A client re-evaluates every affected query on every write; this is
/// the part of that work that does not depend on the data.
///
/// A plan is reused only where it means what it meant when built: the attrs are the same
/// (``AttrStore/version``) and every symbol lookup it was built on gives the same answer in the
/// store now (``SymbolDependencies``). Copies of a store share its cache, and a copy that interned
/// other strings fails that check instead of reading another string's symbol.
final class QueryPlanCache: @unchecked Sendable {
  // Safe to share across threads: `plans` is only touched with `lock` held, and a plan is taken
  // out of the cache while one evaluation uses it, so no two evaluations ever share a plan.
  private let lock = NSLock()
  private var plans: [QueryKey: QueryPlan] = [:]
  /// The plan put last, outside `plans`: a query evaluated again (a client re-evaluates the same
  /// query value after every change) is found by comparing bits, without hashing the query.
  private var last: (key: QueryKey, plan: QueryPlan)?
  /// Plans kept per store; past this an arbitrary one makes room.
  static let capacity = 64

  /// Removes and returns the plan for `query` if it still holds in `store`.
  func take(_ key: QueryKey, for store: TripleStore) -> QueryPlan? {
    let plan: QueryPlan? = lock.withLock {
      if let last, QueryKey.sameBits(last.key.query, key.query) {
        self.last = nil
        return last.plan
      }
      return plans.removeValue(forKey: key)
    }
    guard let plan else { return nil }
    return plan.holds(in: store) ? plan : nil
  }

  /// Keeps `plan` for the next evaluation of its query.
  func put(_ key: QueryKey, _ plan: QueryPlan) {
    lock.withLock {
      if let previous = last, !QueryKey.sameBits(previous.key.query, key.query) {
        if plans.count >= Self.capacity, plans[previous.key] == nil { plans.remove(at: plans.startIndex) }
        plans[previous.key] = previous.plan
      }
      // `take` removed `key` from `plans` (every `put` follows a `take` of its key).
      last = (key, plan)
    }
  }
}

/// One query's form trees (per namespace) with what they were built on. The nodes fill their
/// caches (compiled where clauses, child links, object attrs, order attr) on first use.
final class QueryPlan {
  let attrsVersion: AttrStore.Version
  let namespaces: [(String, FormNode)]
  let symbols = SymbolDependencies()

  init(namespaces: [(String, JSON)], attrs: AttrStore) {
    attrsVersion = attrs.version
    self.namespaces = namespaces.map { ($0.0, FormNode(etype: $0.0, level: 0, form: $0.1)) }
  }

  func holds(in store: TripleStore) -> Bool {
    store.attrs.version === attrsVersion && symbols.hold(in: store)
  }
}

/// The symbol lookups compiled forms were built on: found strings with their symbols, and strings
/// the store did not hold.
final class SymbolDependencies {
  private var found: [(String, UInt32)] = []
  private var missing: [String] = []

  /// `store.symbols.lookup(s)`, remembered.
  func lookup(_ s: String, in store: TripleStore) -> UInt32? {
    if let sym = store.symbols.lookup(s) {
      found.append((s, sym))
      return sym
    }
    missing.append(s)
    return nil
  }

  /// `store.existingKey(value)`, remembering the lookup of a string.
  func existingKey(_ value: JSON, in store: TripleStore) -> ValueKey? {
    guard case let .string(s) = value else { return store.existingKey(value) }
    return lookup(s, in: store).map(ValueKey.sym)
  }

  /// Whether every lookup gives the same answer in `store`. A symbol that still names its string
  /// is that string's only symbol, so found strings need no hashing.
  func hold(in store: TripleStore) -> Bool {
    for (s, sym) in found {
      guard Int(sym) < store.symbols.count, store.symbols[sym].isExactly(s) else { return false }
    }
    for s in missing where store.symbols.lookup(s) != nil { return false }
    return true
  }
}

/// A query as a cache key: equal only when identical as JavaScript sees it, key order included
/// (the order of a form's keys and of `where` clauses can change results).
struct QueryKey: Hashable {
  let query: JSON

  static func == (a: QueryKey, b: QueryKey) -> Bool { Self.identical(a.query, b.query) }

  func hash(into hasher: inout Hasher) { Self.hash(query, into: &hasher) }

  /// Whether two values are the same bits: the same scalars, or the same storage of the same
  /// strings, arrays and objects, which cannot change while the cache holds one of them. Not
  /// the same bits says nothing (``identical`` decides).
  static func sameBits(_ a: JSON, _ b: JSON) -> Bool {
    var (a, b) = (a, b)
    return withUnsafeBytes(of: &a) { x in withUnsafeBytes(of: &b) { y in x.elementsEqual(y) } }
  }

  static func identical(_ a: JSON, _ b: JSON) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case let (.bool(x), .bool(y)): return x == y
    case let (.number(x), .number(y)): return x.bitPattern == y.bitPattern
    case let (.string(x), .string(y)): return x.isExactly(y)
    case let (.array(x), .array(y)):
      return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case let (.object(x), .object(y)):
      return x.count == y.count
        && zip(x, y).allSatisfy { $0.key.isExactly($1.key) && identical($0.value, $1.value) }
    default: return false
    }
  }

  static func hash(_ value: JSON, into hasher: inout Hasher) {
    switch value {
    case .null: hasher.combine(0 as UInt8)
    case let .bool(b): hasher.combine(UInt8(b ? 1 : 2))
    case let .number(n): hasher.combine(n.bitPattern)
    case let .string(s): hasher.combine(s)
    case let .array(items):
      hasher.combine(items.count)
      for item in items { hash(item, into: &hasher) }
    case let .object(o):
      hasher.combine(o.count)
      for (key, item) in o {
        hasher.combine(key)
        hash(item, into: &hasher)
      }
    }
  }
}
