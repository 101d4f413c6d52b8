/// CEL's equality and ordering.
///
/// Equality is heterogeneous, as cel-java does it with `CelOptions.current()` (the options
/// InstantDB builds its runtime with): values of different types are unequal rather than an error
/// (`1 == 'a'` is false, `auth.id == null` is false when there is an id), and `int`, `uint` and
/// `double` compare by numeric value on one number line (`1 == 1.0`, `-1 < 1u`). cel-java's type
/// checker would reject some of these mixes when both sides are literals; this implementation has
/// no type checker and evaluates them.
extension CELValue {
  /// CEL's `==`: numbers by value across types, lists element-wise, maps by key set and values,
  /// strings by code points, NaN equal to nothing, different types unequal.
  public func celEquals(_ other: CELValue) -> Bool {
    if let order = Numbers.compare(self, other) { return order == .some(0) }
    switch (self, other) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
    case (.bytes(let a), .bytes(let b)): return a == b
    case (.list(let a), .list(let b)):
      guard a.count == b.count else { return false }
      for (x, y) in zip(a, b) where !x.celEquals(y) { return false }
      return true
    case (.map(let a), .map(let b)):
      guard a.count == b.count else { return false }
      for (key, value) in a.entries {
        guard let found = b.lookup(key.value).value, value.celEquals(found) else { return false }
      }
      return true
    case (.timestamp(let a), .timestamp(let b)): return a == b
    case (.duration(let a), .duration(let b)): return a == b
    case (.type(let a), .type(let b)): return a == b
    case (.object(let a), .object(let b)): return a.isEqual(to: b)
    default: return false
    }
  }
}
