/// Interns strings (entity ids, attr ids, string values) as dense 32-bit symbols, so the indexes
/// hash and compare small integers instead of 36-character UUIDs, and each distinct string is
/// stored once.
struct SymbolTable: Sendable {
  private(set) var strings: [String] = []
  /// Open addressing with linear probing, a power of two long: each slot is 0 (free) or a symbol's
  /// 32-bit string hash (high half) and its id + 1 (low half). Keeping the hash in the slot lets a
  /// probe skip other strings without reading them and lets the table grow without rehashing
  /// strings. Eight bytes a slot, against twenty for a `[String: UInt32]` bucket (the key's
  /// `String` is a second reference to each string).
  private var slots: ContiguousArray<UInt64> = []

  var count: Int { strings.count }

  mutating func intern(_ s: String) -> UInt32 {
    let h = Self.hash(s)
    if !slots.isEmpty, let id = find(s, h) { return id }
    let id = UInt32(strings.count)
    strings.append(s)
    if strings.count * 4 > slots.count * 3 { grow(to: max(16, slots.count * 2)) }
    place(UInt64(h) << 32 | UInt64(id + 1))
    return id
  }

  func lookup(_ s: String) -> UInt32? {
    slots.isEmpty ? nil : find(s, Self.hash(s))
  }

  subscript(id: UInt32) -> String { strings[Int(id)] }

  /// The string's hash: its exact UTF-8 bytes (JavaScript compares strings code unit by code
  /// unit; Swift's `==` would equate canonically equivalent strings).
  private static func hash(_ s: String) -> UInt32 {
    var copy = s
    var hasher = Hasher()
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    return UInt32(truncatingIfNeeded: hasher.finalize())
  }

  private func find(_ s: String, _ h: UInt32) -> UInt32? {
    let mask = slots.count &- 1
    var i = Int(h) & mask
    while true {
      let slot = slots[i]
      if slot == 0 { return nil }
      if UInt32(truncatingIfNeeded: slot >> 32) == h {
        let id = UInt32(truncatingIfNeeded: slot) &- 1
        if strings[Int(id)].isExactly(s) { return id }
      }
      i = (i &+ 1) & mask
    }
  }

  private mutating func place(_ slot: UInt64) {
    let mask = slots.count &- 1
    var i = Int(UInt32(truncatingIfNeeded: slot >> 32)) & mask
    while slots[i] != 0 { i = (i &+ 1) & mask }
    slots[i] = slot
  }

  private mutating func grow(to size: Int) {
    let old = slots
    slots = ContiguousArray(repeating: 0, count: size)
    for slot in old where slot != 0 { place(slot) }
  }
}

/// A stored value as an index key, with JavaScript `Map` key semantics (SameValueZero):
/// `1` and `"1"` differ, and two objects are the same key only if they are the same object.
enum ValueKey: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  /// A string, interned.
  case sym(UInt32)
  /// An object or array, by identity (an index into the store's object table).
  case obj(UInt32)

  static func number(normalizing n: Double) -> ValueKey { .number(n == 0 ? 0 : n) }

  var sym: UInt32? { if case let .sym(s) = self { return s } else { return nil } }
}

/// Up to a handful of 32-bit indices with no allocation for the common single-element case.
/// `empty` is distinct from absent: the reference client keeps emptied maps, and queries can see
/// the difference (`$isNull` after a retract).
enum IndexList: Sendable {
  case empty
  case one(UInt32)
  case many([UInt32])

  var isEmpty: Bool {
    switch self {
    case .empty: return true
    case .one: return false
    case let .many(a): return a.isEmpty
    }
  }

  var count: Int {
    switch self {
    case .empty: return 0
    case .one: return 1
    case let .many(a): return a.count
    }
  }

  var first: UInt32? {
    switch self {
    case .empty: return nil
    case let .one(x): return x
    case let .many(a): return a.first
    }
  }

  var last: UInt32? {
    switch self {
    case .empty: return nil
    case let .one(x): return x
    case let .many(a): return a.last
    }
  }

  func forEach(_ body: (UInt32) throws -> Void) rethrows {
    switch self {
    case .empty: return
    case let .one(x): try body(x)
    case let .many(a): for x in a { try body(x) }
    }
  }

  /// Calls `body` on each index until it returns true; returns whether one did.
  @discardableResult
  func forEachUntil(_ body: (UInt32) throws -> Bool) rethrows -> Bool {
    switch self {
    case .empty: return false
    case let .one(x): return try body(x)
    case let .many(a):
      for x in a where try body(x) { return true }
      return false
    }
  }

  var array: [UInt32] {
    switch self {
    case .empty: return []
    case let .one(x): return [x]
    case let .many(a): return a
    }
  }

  func contains(_ x: UInt32) -> Bool {
    switch self {
    case .empty: return false
    case let .one(y): return x == y
    case let .many(a): return a.contains(x)
    }
  }

  mutating func append(_ x: UInt32) {
    switch self {
    case .empty: self = .one(x)
    case let .one(y): self = .many([y, x])
    case var .many(a):
      self = .empty
      a.append(x)
      self = .many(a)
    }
  }

  /// Copies a long list into an array with no unused room, when that frees at least 16 bytes
  /// (the allocator's granularity).
  mutating func trim() {
    guard case let .many(a) = self, a.capacity - a.count >= 4 else { return }
    self = .many(a.trimmed())
  }

  /// Removes `x`; an emptied list stays present as `.empty`.
  mutating func remove(_ x: UInt32) {
    switch self {
    case .empty: return
    case let .one(y): if x == y { self = .empty }
    case var .many(a):
      guard let i = a.firstIndex(of: x) else { return }
      self = .empty
      a.remove(at: i)
      self = a.count == 1 ? .one(a[0]) : (a.isEmpty ? .empty : .many(a))
    }
  }
}

extension String {
  /// Equal code unit for code unit (JavaScript's `===` on strings).
  func isExactly(_ other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    var a = self
    var b = other
    return a.withUTF8 { x in b.withUTF8 { y in UnsafeRawBufferPointer(x).bytesEqual(UnsafeRawBufferPointer(y)) } }
  }
}

extension UnsafeRawBufferPointer {
  /// Whether two buffers of the same length hold the same bytes, compared eight at a time.
  func bytesEqual(_ other: UnsafeRawBufferPointer) -> Bool {
    var i = 0
    while i + 8 <= count {
      if loadUnaligned(fromByteOffset: i, as: UInt64.self) != other.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
        return false
      }
      i += 8
    }
    while i < count {
      if self[i] != other[i] { return false }
      i += 1
    }
    return true
  }
}

extension Array {
  /// A copy with no unused room.
  func trimmed() -> [Element] {
    var copy: [Element] = []
    copy.reserveCapacity(count)
    copy.append(contentsOf: self)
    return copy
  }
}
