/// Comparing numbers of CEL's three numeric types on one number line.
enum Numbers {
  /// Nil when either value is not a number; `.some(nil)` when a NaN makes them unordered;
  /// otherwise -1, 0 or 1.
  static func compare(_ a: CELValue, _ b: CELValue) -> Int?? {
    switch (a, b) {
    case (.int(let x), .int(let y)): return .some(sign(x, y))
    case (.uint(let x), .uint(let y)): return .some(sign(x, y))
    case (.double(let x), .double(let y)): return .some(x.isNaN || y.isNaN ? nil : sign(x, y))
    case (.int(let x), .uint(let y)): return .some(x < 0 ? -1 : sign(UInt64(x), y))
    case (.uint(let x), .int(let y)): return .some(y < 0 ? 1 : sign(x, UInt64(y)))
    case (.int(let x), .double(let y)): return .some(compare(x, y))
    case (.double(let x), .int(let y)): return .some(compare(y, x).map { -$0 })
    case (.uint(let x), .double(let y)): return .some(compare(x, y))
    case (.double(let x), .uint(let y)): return .some(compare(y, x).map { -$0 })
    default: return nil
    }
  }

  private static func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }

  /// An integer against a double compares as doubles, as cel-go and cel-java do (the
  /// conformance tests pin this: `dyn(9223372036854775807) < 9223372036854775808.0` is false).
  private static func compare(_ i: Int64, _ d: Double) -> Int? {
    d.isNaN ? nil : sign(Double(i), d)
  }

  private static func compare(_ u: UInt64, _ d: Double) -> Int? {
    d.isNaN ? nil : sign(Double(u), d)
  }
}
