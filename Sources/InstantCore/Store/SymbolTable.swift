/// Interns strings (entity ids, attr ids, string values) as dense 32-bit symbols, so the indexes
/// hash and compare small integers instead of 36-character UUIDs, and each distinct string is
/// stored once.
struct SymbolTable: Sendable {
  private(set) var strings: [String] = []
  private var ids: [ExactString: UInt32] = [:]

  var count: Int { strings.count }

  mutating func intern(_ s: String) -> UInt32 {
    if let id = ids[ExactString(s)] { return id }
    let id = UInt32(strings.count)
    strings.append(s)
    ids[ExactString(s)] = id
    return id
  }

  func lookup(_ s: String) -> UInt32? { ids[ExactString(s)] }

  subscript(id: UInt32) -> String { strings[Int(id)] }

  mutating func reserve(_ n: Int) {
    strings.reserveCapacity(n)
    ids.reserveCapacity(n)
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

/// A string compared by its exact code units, as JavaScript compares strings. Swift's `==`
/// treats canonically equivalent strings (`"é"` and `"e\u{301}"`) as equal; JavaScript does not.
struct ExactString: Hashable, Sendable {
  let value: String

  init(_ value: String) { self.value = value }

  static func == (a: ExactString, b: ExactString) -> Bool { a.value.isExactly(b.value) }

  func hash(into hasher: inout Hasher) {
    var copy = value
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
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
