import TestSupport
import Testing
@testable import InstantCore

/// `V8Sort` reproduces `Array.prototype.sort` in V8, which matters when JavaScript's comparator is
/// inconsistent (mixed types under `>`): then the answer depends on the algorithm itself.
struct V8SortTests {
  /// ``values``: 150 mixed numbers, strings and booleans; sorted by index with
  /// `(a, b) => a > b ? 1 : -1` (the reference's `compareDisparateValues`) they come out in
  /// ``v8Order``, taken from Node 20 (V8).
  @Test func inconsistentComparatorGivesV8sOrder() {
    let sorted = V8Sort.sort(Array(Self.values.indices)) { x, y in
      JSValue(Self.values[x]) > JSValue(Self.values[y]) ? 1 : -1
    }
    #expect(sorted == Self.v8Order)
  }

  static let seeds: [UInt64] = [1, 42, 2_024]

  @Test(arguments: [0, 1, 2, 63, 64, 65, 200, 1_000, 5_000], seeds)
  func consistentComparatorIsAStableSort(_ count: Int, seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    let items = (0..<count).map { (key: Int.random(in: 0..<50, using: &rng), index: $0) }
    let sorted = V8Sort.sort(items) { $0.key == $1.key ? 0 : ($0.key < $1.key ? -1 : 1) }
    #expect(
      sorted.map(\.index) == items.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map(\.index), "seed \(seed)")
  }

  @Test(arguments: seeds)
  func anyComparatorGivesAPermutation(seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    for count in [10, 64, 500, 3_000] {
      let sorted = V8Sort.sort(Array(0..<count)) { _, _ in Int.random(in: -1...1, using: &rng) }
      #expect(sorted.sorted() == Array(0..<count), "seed \(seed), count \(count)")
    }
  }
}
