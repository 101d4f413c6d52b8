public import OrderedCollections

/// A JSON value, as InstantDB sends and stores it.
///
/// Numbers are `Double`s, exactly as in JavaScript, so every value the reference client can hold
/// round-trips unchanged. Objects keep their keys in insertion order (JavaScript semantics matter
/// for the first key of `order`, for example), but two objects are equal when they hold the same
/// members in any order; ``canonicalString`` and ``stableHash`` are order-independent too.
public enum JSON: Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSON])
  case object(JSONObject)
}

/// The members of a JSON object, in insertion order.
public typealias JSONObject = OrderedDictionary<String, JSON>

extension JSON: Equatable {
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case let (.bool(a), .bool(b)): return a == b
    case let (.number(a), .number(b)): return a == b
    case let (.string(a), .string(b)): return a.isExactly(b)
    case let (.array(a), .array(b)): return a == b
    case let (.object(a), .object(b)):
      guard a.count == b.count else { return false }
      // Copies of one object share its storage: equal without reading the members (a kept answer's
      // unchanged rows are compared with themselves on every change).
      if a.count > 0, sameStorage(a, b) { return true }
      for (key, value) in a {
        guard let other = b[key], other == value else { return false }
      }
      return true
    default: return false
    }
  }
}

/// Whether two objects are copies of one storage (keys and values alike).
private func sameStorage(_ a: JSONObject, _ b: JSONObject) -> Bool {
  let values = a.values.withUnsafeBufferPointer { x in b.values.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
  guard values else { return false }
  return a.keys.elements.withUnsafeBufferPointer { x in b.keys.elements.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
}

extension JSON: Hashable {
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case let .bool(b): hasher.combine(1); hasher.combine(b)
    case let .number(n): hasher.combine(2); hasher.combine(n == 0 ? 0 : n)
    case let .string(s): hasher.combine(3); hasher.combine(s)
    case let .array(a): hasher.combine(4); hasher.combine(a)
    case let .object(o):
      // Order-independent: combine the members' hashes commutatively.
      hasher.combine(5)
      var sum = 0
      for (key, value) in o {
        var h = Hasher()
        h.combine(key)
        h.combine(value)
        sum = sum &+ h.finalize()
      }
      hasher.combine(o.count)
      hasher.combine(sum)
    }
  }
}

extension JSON {
  /// The string, if this is a string.
  public var stringValue: String? { if case let .string(s) = self { return s } else { return nil } }
  /// The number, if this is a number.
  public var numberValue: Double? { if case let .number(n) = self { return n } else { return nil } }
  /// The boolean, if this is a boolean.
  public var boolValue: Bool? { if case let .bool(b) = self { return b } else { return nil } }
  /// The elements, if this is an array.
  public var arrayValue: [JSON]? { if case let .array(a) = self { return a } else { return nil } }
  /// The members, if this is an object.
  public var objectValue: JSONObject? { if case let .object(o) = self { return o } else { return nil } }
  /// Whether this is `null`.
  public var isNull: Bool { if case .null = self { return true } else { return false } }

  /// The member named `key`, if this is an object that has it.
  public subscript(key: String) -> JSON? {
    if case let .object(o) = self { return o[key] }
    return nil
  }

  /// The element at `index`, if this is an array long enough.
  public subscript(index: Int) -> JSON? {
    if case let .array(a) = self, a.indices.contains(index) { return a[index] }
    return nil
  }

  /// The number as an `Int` when it is integral and in range.
  public var intValue: Int? {
    guard case let .number(n) = self, n.rounded() == n, abs(n) < 9.007_199_254_740_992e15 else { return nil }
    return Int(n)
  }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    var o = JSONObject(minimumCapacity: elements.count)
    for (k, v) in elements { o[k] = v }
    self = .object(o)
  }
}

extension JSON: CustomStringConvertible {
  public var description: String { serialized() }
}
