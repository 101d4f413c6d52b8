/// Sort keys that are all strings or nullish, on an attr that is not string-typed, with UUID ids:
/// ``Ordering/compare(_:_:_:_:dataType:)`` for them (JavaScript's `>` on strings is UTF-16 order)
/// without a JavaScript value per comparison.
struct StringSortKeys {
  let values: [String?]
  let ids: [UUIDBits]
  /// Each value's first 8 UTF-8 bytes, big-endian and zero-padded: two values whose prefixes
  /// differ compare as their prefixes do, without reading the strings. `nil` where UTF-8 order
  /// may not be UTF-16 order within those bytes (a byte ≥ 0xEE, see `JSString.compareUTF16`).
  let prefixes: [UInt64?]

  init?(_ keys: [(e: UInt32, v: JSValue)], dataType: String?, store: TripleStore) {
    guard dataType != "string" else { return nil }
    var values: [String?] = []
    var ids: [UUIDBits] = []
    var prefixes: [UInt64?] = []
    values.reserveCapacity(keys.count)
    ids.reserveCapacity(keys.count)
    prefixes.reserveCapacity(keys.count)
    for (e, v) in keys {
      let bits = Int(e) < store.entityUUID.count ? store.entityUUID[Int(e)] : .invalid
      guard bits.isValid else { return nil }
      switch v {
      case var .string(s):
        values.append(s)
        prefixes.append(s.withUTF8(Self.prefix))
      case .undefined, .null:
        values.append(nil)
        prefixes.append(nil)
      default: return nil
      }
      ids.append(bits)
    }
    self.values = values
    self.ids = ids
    self.prefixes = prefixes
  }

  static func prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    var key: UInt64 = 0
    for k in 0..<8 {
      let b = k < bytes.count ? bytes[k] : 0
      if b >= 0xEE { return nil }
      key = key << 8 | UInt64(b)
    }
    return key
  }

  func compare(_ i: Int, _ j: Int) -> Int {
    if let x = prefixes[i], let y = prefixes[j], x != y { return x < y ? -1 : 1 }
    switch (values[i], values[j]) {
    case (nil, nil): return compareIds(i, j)
    case (_, nil): return 1
    case (nil, _): return -1
    case let (a?, b?):
      let c = JSString.compareUTF16(a, b)
      return c == 0 ? compareIds(i, j) : c
    }
  }

  func compareIds(_ i: Int, _ j: Int) -> Int {
    let (x, y) = (ids[i], ids[j])
    if x.hi != y.hi { return x.hi < y.hi ? -1 : 1 }
    if x.lo != y.lo { return x.lo < y.lo ? -1 : 1 }
    return 0
  }
}
