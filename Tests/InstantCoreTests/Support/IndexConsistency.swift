import Testing
@testable import InstantCore

extension TripleStore {
  /// Every way the three indexes must agree (instaql.md §3), as a list of violations:
  ///
  /// - each record in `eav` belongs to its entity and attr slot, and is found in `aev` under its value;
  /// - each record in `aev` is found in its `eav` slot;
  /// - each ref triple has its `vae` entry (`vae` may hold more: the reference's stale entries);
  /// - no slot repeats a value, and cardinality-one attrs hold at most one value;
  /// - `count` is the number of live triples, and `triples` lists each exactly once.
  func indexViolations() -> [String] {
    var problems: [String] = []
    var live = 0
    for (e, slots) in eav.enumerated() {
      guard let slots else { continue }
      var attrsSeen = Set<UInt32>()
      for slot in slots {
        if !attrsSeen.insert(slot.attr).inserted { problems.append("entity \(symbols[UInt32(e)]) has two slots for one attr") }
        let attr = attrs[symbols[slot.attr]]
        var values = Set<ValueKey>()
        if attr?.isCardinalityOne == true, slot.triples.count > 1 {
          problems.append("cardinality-one attr \(symbols[slot.attr]) has \(slot.triples.count) values on \(symbols[UInt32(e)])")
        }
        slot.triples.forEach { r in
          live += 1
          let record = records[Int(r)]
          if record.e != UInt32(e) || record.a != slot.attr { problems.append("record \(r) is in the wrong eav slot") }
          if !values.insert(record.v).inserted { problems.append("value repeated in eav slot of \(symbols[UInt32(e)])") }
          if aev[record.a]?[record.v]?.contains(r) != true { problems.append("record \(r) missing from aev") }
          if attr?.isRef == true, let target = record.v.sym {
            let sources = vae[target]?.first { $0.attr == record.a }?.sources
            if sources?.contains(record.e) != true { problems.append("ref record \(r) missing from vae") }
          }
        }
      }
    }
    for (a, byValue) in aev {
      for (v, list) in byValue {
        list.forEach { r in
          let record = records[Int(r)]
          if record.a != a || record.v != v { problems.append("record \(r) is in the wrong aev slot") }
          if slot(record.e, record.a)?.contains(r) != true { problems.append("aev record \(r) missing from eav") }
        }
      }
    }
    if live != count { problems.append("count is \(count) but eav holds \(live) triples") }
    if triples.count != live { problems.append("triples lists \(triples.count), eav holds \(live)") }
    return problems
  }

  /// Records an issue for every index inconsistency.
  func expectConsistentIndexes(sourceLocation: SourceLocation = #_sourceLocation) {
    let problems = indexViolations()
    #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
  }
}

/// Applies `transactions` (a JSON list of batches) to ``TestData``, checking the indexes after every
/// batch, then expects `query`'s result (ids relabelled).
func expectAfterTransact(
  _ transactions: String, _ query: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  var store = try TestData.store()
  store.expectConsistentIndexes(sourceLocation: sourceLocation)
  for batch in try #require(TestData.json(transactions).arrayValue) {
    try store.transact(#require(batch.arrayValue))
    store.expectConsistentIndexes(sourceLocation: sourceLocation)
  }
  let result = try store.query(TestData.json(query))
  expectEqual(TestData.relabel(result.json), try JSON.parse(expected), sourceLocation: sourceLocation)
}

/// Expects the last batch of `transactions` to throw a ``StoreError`` and leave the store as it was.
func expectTransactError(_ transactions: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
  var store = try TestData.store()
  var batches = try #require(TestData.json(transactions).arrayValue)
  let failing = try #require(batches.popLast()?.arrayValue)
  for batch in batches { try store.transact(#require(batch.arrayValue)) }
  let before = store.triples
  #expect(throws: StoreError.self, sourceLocation: sourceLocation) { try store.transact(failing) }
  #expect(store.triples == before, "a failed batch must leave the store unchanged", sourceLocation: sourceLocation)
  store.expectConsistentIndexes(sourceLocation: sourceLocation)
}
