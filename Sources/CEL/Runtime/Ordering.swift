/// CEL's `<`, `<=`, `>` and `>=`: numbers across types on one number line, and each of bool,
/// string (by code point), bytes, timestamp and duration against its own type.
enum Ordering {
  /// -1, 0 or 1 for values CEL orders (numbers across types, bool, string, bytes, timestamp,
  /// duration); nil when a NaN makes them unordered (every comparison is then false).
  static func compare(_ a: CELValue, _ b: CELValue, _ op: String) throws(CELEvaluationError) -> Int? {
    if let order = Numbers.compare(a, b) { return order }
    switch (a, b) {
    case (.bool(let x), .bool(let y)): return x == y ? 0 : (!x ? -1 : 1)
    case (.string(let x), .string(let y)): return lexicographic(Array(x.utf8), Array(y.utf8))
    case (.bytes(let x), .bytes(let y)): return lexicographic(x, y)
    case (.timestamp(let x), .timestamp(let y)): return x < y ? -1 : (x > y ? 1 : 0)
    case (.duration(let x), .duration(let y)): return x < y ? -1 : (x > y ? 1 : 0)
    default: throw Builtins.noOverload(op, [a, b])
    }
  }

  private static func lexicographic(_ x: [UInt8], _ y: [UInt8]) -> Int {
    for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
    return x.count < y.count ? -1 : (x.count > y.count ? 1 : 0)
  }
}
