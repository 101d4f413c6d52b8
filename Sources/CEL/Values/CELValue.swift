/// A CEL value: what an expression evaluates to, and what the host binds to variables.
///
/// Swift's `==` on `CELValue` is structural — `.int(1) != .double(1)`, and a NaN equals itself so
/// that values can sit in sets and dictionaries. The CEL `==` operator is a different relation
/// (numbers compare across `int`, `uint` and `double`, NaN is unequal to everything); programs get
/// it through ``CELProgram``, hosts through ``celEquals(_:)``.
public enum CELValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case uint(UInt64)
  case double(Double)
  case string(String)
  case bytes([UInt8])
  case list([CELValue])
  case map(CELMap)
  case timestamp(CELTimestamp)
  case duration(CELDuration)
  case type(CELType)
  /// A host value whose fields and methods the host resolves on demand (``CELObject``).
  case object(any CELObject)
}

extension CELValue {
  /// The CEL type of the value, as `type(x)` returns it.
  public var celType: CELType {
    switch self {
    case .null: .null
    case .bool: .bool
    case .int: .int
    case .uint: .uint
    case .double: .double
    case .string: .string
    case .bytes: .bytes
    case .list: .list
    case .map: .map
    case .timestamp: .timestamp
    case .duration: .duration
    case .type: .type
    case .object(let object): CELType(object.typeName)
    }
  }

  /// The Bool inside, or nil for any other value.
  public var boolValue: Bool? {
    if case .bool(let b) = self { b } else { nil }
  }

  /// The String inside, or nil for any other value.
  public var stringValue: String? {
    if case .string(let s) = self { s } else { nil }
  }
}

extension CELValue: Hashable {
  public static func == (lhs: CELValue, rhs: CELValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.uint(let a), .uint(let b)): a == b
    case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
    case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.bytes(let a), .bytes(let b)): a == b
    case (.list(let a), .list(let b)): a == b
    case (.map(let a), .map(let b)): a == b
    case (.timestamp(let a), .timestamp(let b)): a == b
    case (.duration(let a), .duration(let b)): a == b
    case (.type(let a), .type(let b)): a == b
    case (.object(let a), .object(let b)): a === b
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(1); hasher.combine(b)
    case .int(let i): hasher.combine(2); hasher.combine(i)
    case .uint(let u): hasher.combine(3); hasher.combine(u)
    case .double(let d):
      hasher.combine(4)
      // Equal doubles hash alike: 0.0 and -0.0, and every NaN.
      if d.isNaN { hasher.combine(Double.nan.bitPattern) } else { hasher.combine(d == 0 ? 0 : d) }
    case .string(let s): hasher.combine(5); for unit in s.utf8 { hasher.combine(unit) }
    case .bytes(let b): hasher.combine(6); hasher.combine(b)
    case .list(let l): hasher.combine(7); hasher.combine(l)
    case .map(let m): hasher.combine(8); hasher.combine(m)
    case .timestamp(let t): hasher.combine(9); hasher.combine(t)
    case .duration(let d): hasher.combine(10); hasher.combine(d)
    case .type(let t): hasher.combine(11); hasher.combine(t)
    case .object(let o): hasher.combine(12); hasher.combine(ObjectIdentifier(o))
    }
  }
}

extension CELValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: CELValue...) { self = .list(elements) }
  public init(dictionaryLiteral elements: (CELMap.Key, CELValue)...) {
    self = .map(CELMap(elements))
  }
}

extension CELValue: CustomStringConvertible {
  /// The value written the way CEL source would write it, for messages and test output.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .uint(let u): return "\(u)u"
    case .double(let d): return CELFormat.doubleLiteral(d)
    case .string(let s): return CELFormat.quoted(s)
    case .bytes(let b): return "b" + CELFormat.quotedBytes(b)
    case .list(let l): return "[" + l.map(\.description).joined(separator: ", ") + "]"
    case .map(let m): return m.description
    case .timestamp(let t): return "timestamp(\"\(t)\")"
    case .duration(let d): return "duration(\"\(d)\")"
    case .type(let t): return t.name
    case .object(let o): return "<\(o.typeName) object>"
    }
  }
}
