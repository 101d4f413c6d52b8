/// A ``ValueKey`` in eight bytes (an enum with a `Double` payload takes sixteen in an array): a
/// number is its `Double`'s bits, zero and NaN made canonical (`-0` is `0`, every NaN the one quiet
/// NaN); the other kinds are negative NaNs with a payload, which no canonical number has:
/// `0xFFFF` in the top 16 bits, the kind in the next 16, the symbol, object index or bool below.
/// Two packed values are equal exactly when their keys are the same `Map` key.
struct PackedValue: Hashable, Sendable {
  let bits: UInt64

  private static let boxed: UInt64 = 0xFFFF_0000_0000_0000
  private static let null: UInt64 = boxed | 1 << 32
  private static let bool: UInt64 = boxed | 2 << 32
  private static let sym: UInt64 = boxed | 3 << 32
  private static let obj: UInt64 = boxed | 4 << 32

  @inline(__always)
  init(_ key: ValueKey) {
    switch key {
    case .null: bits = Self.null
    case let .bool(b): bits = Self.bool | (b ? 1 : 0)
    case let .number(n): bits = n.isNaN ? Double.nan.bitPattern : n == 0 ? 0 : n.bitPattern
    case let .sym(s): bits = Self.sym | UInt64(s)
    case let .obj(o): bits = Self.obj | UInt64(o)
    }
  }

  /// The key: numbers and symbols, the common kinds, are decoded first, the others out of line.
  var key: ValueKey {
    if bits < Self.null { return .number(Double(bitPattern: bits)) }
    if bits >> 32 == Self.sym >> 32 { return .sym(UInt32(truncatingIfNeeded: bits)) }
    return otherKey
  }

  private var otherKey: ValueKey {
    let payload = UInt32(truncatingIfNeeded: bits)
    switch bits >> 32 {
    case Self.bool >> 32: return .bool(payload != 0)
    case Self.null >> 32: return .null
    default: return .obj(payload)
    }
  }
}

/// One attr's inner map of the `aev` index: value → the records that hold it, keyed by the value
/// packed in eight bytes (sixteen bytes a bucket, against twenty-four keyed by ``ValueKey``).
/// Iteration order is the hash table's, as it was for a `[ValueKey: IndexList]`.
struct ValueIndex: Sendable, Sequence, ExpressibleByDictionaryLiteral {
  private var lists: [PackedValue: IndexList] = [:]

  init() {}

  init(dictionaryLiteral elements: (ValueKey, IndexList)...) {
    for (key, list) in elements { lists[PackedValue(key)] = list }
  }

  var count: Int { lists.count }
  var isEmpty: Bool { lists.isEmpty }

  subscript(key: ValueKey) -> IndexList? {
    get { lists[PackedValue(key)] }
    _modify { yield &lists[PackedValue(key)] }
  }

  /// Adds record `r` at the end of `key`'s list.
  mutating func append(_ r: UInt32, at key: ValueKey) {
    lists[PackedValue(key), default: .empty].append(r)
  }

  var values: Dictionary<PackedValue, IndexList>.Values { lists.values }

  /// Trims each list's unused room (``IndexList/trim()``).
  mutating func trimLists() {
    var i = lists.startIndex
    while i != lists.endIndex {
      lists.values[i].trim()
      lists.formIndex(after: &i)
    }
  }

  struct Iterator: IteratorProtocol {
    var base: Dictionary<PackedValue, IndexList>.Iterator
    mutating func next() -> (key: ValueKey, value: IndexList)? {
      guard let (key, list) = base.next() else { return nil }
      return (key.key, list)
    }
  }

  func makeIterator() -> Iterator { Iterator(base: lists.makeIterator()) }
}
