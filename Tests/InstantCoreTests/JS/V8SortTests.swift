import Testing
@testable import InstantCore

/// `V8Sort` reproduces `Array.prototype.sort` in V8, which matters when JavaScript's comparator is
/// inconsistent (mixed types under `>`): then the answer depends on the algorithm itself.
struct V8SortTests {
  /// Indices of 150 mixed numbers, strings and booleans, sorted with `(a, b) => a > b ? 1 : -1`
  /// (the reference's `compareDisparateValues`). Expected order taken from Node 20 (V8).
  static let values: [JSON] = [0, "a", true, true, 16, true, 4, "a", 0, 4, true, "10", 8, 8, 0, "10", 8, "10", true, "", true, 4, 8, 8, true, 8, "", 0, 4, "10", 0, true, "10", "10", true, true, true, true, "10", "a", 0, true, "a", 8, "", true, true, "10", 0, 16, 8, true, 1, 4, "", "", "10", 4, true, 16, true, 12, true, true, true, 4, true, true, true, "10", "", "", "", true, 0, 4, "", "a", true, 12, 4, true, 12, "a", "", "", true, true, "", 16, 4, "10", true, true, true, true, 4, true, "a", true, 16, true, true, "", true, 4, 12, "", "", true, "10", 4, "10", "10", true, 8, true, "10", true, 12, 8, true, 12, "10", true, 4, true, "a", 8, 8, "10", true, "10", "", true, "a", true, "", 0, 12, "", true, 0, "a", true, true, "10", true, "", true]
  static let v8Order: [Int] = [148, 142, 140, 138, 137, 133, 108, 107, 103, 88, 85, 84, 76, 74, 72, 71, 70, 55, 54, 48, 44, 40, 30, 27, 26, 19, 149, 147, 145, 144, 143, 141, 136, 135, 134, 131, 127, 126, 124, 121, 118, 116, 114, 109, 104, 102, 101, 99, 98, 97, 95, 94, 93, 92, 87, 86, 96, 90, 91, 89, 83, 14, 8, 81, 78, 73, 68, 67, 66, 64, 63, 62, 60, 58, 52, 51, 46, 45, 41, 37, 36, 35, 34, 31, 24, 20, 18, 10, 75, 65, 57, 53, 50, 43, 69, 56, 47, 38, 61, 59, 49, 42, 39, 7, 5, 3, 2, 125, 111, 105, 80, 28, 21, 9, 6, 129, 128, 120, 115, 25, 23, 22, 16, 13, 12, 146, 132, 130, 123, 117, 113, 112, 110, 33, 32, 29, 17, 15, 11, 139, 122, 119, 106, 82, 79, 100, 77, 4, 1, 0]

  @Test func inconsistentComparatorGivesV8sOrder() {
    let sorted = V8Sort.sort(Array(Self.values.indices)) { x, y in
      JSValue(Self.values[x]) > JSValue(Self.values[y]) ? 1 : -1
    }
    #expect(sorted == Self.v8Order)
  }

  @Test(arguments: [0, 1, 2, 63, 64, 65, 200, 1_000, 5_000])
  func consistentComparatorIsAStableSort(_ count: Int) {
    var rng = SystemRandomNumberGenerator()
    let items = (0..<count).map { (key: Int.random(in: 0..<50, using: &rng), index: $0) }
    let sorted = V8Sort.sort(items) { $0.key == $1.key ? 0 : ($0.key < $1.key ? -1 : 1) }
    #expect(sorted.map(\.index) == items.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map(\.index))
  }

  @Test func anyComparatorGivesAPermutation() {
    var rng = SystemRandomNumberGenerator()
    for count in [10, 64, 500, 3_000] {
      let sorted = V8Sort.sort(Array(0..<count)) { _, _ in Int.random(in: -1...1, using: &rng) }
      #expect(sorted.sorted() == Array(0..<count))
    }
  }
}
