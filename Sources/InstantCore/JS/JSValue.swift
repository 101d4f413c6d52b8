/// A JavaScript value as the reference engine sees a stored or query value, with just enough of
/// the language's coercion rules to reproduce its comparisons exactly (`>`, `<`, `===`, truthiness).
///
/// `object` covers arrays and plain objects; `identity` distinguishes two equal-looking objects,
/// which JavaScript never considers `===`.
enum JSValue {
  case undefined
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case object(JSON, identity: Int)

  init(_ json: JSON?, identity: Int = -1) {
    guard let json else { self = .undefined; return }
    switch json {
    case .null: self = .null
    case let .bool(b): self = .bool(b)
    case let .number(n): self = .number(n)
    case let .string(s): self = .string(s)
    case .array, .object: self = .object(json, identity: identity)
    }
  }

  var isNullish: Bool {
    switch self {
    case .undefined, .null: return true
    default: return false
    }
  }

  /// JavaScript truthiness.
  var isTruthy: Bool {
    switch self {
    case .undefined, .null: return false
    case let .bool(b): return b
    case let .number(n): return !(n == 0 || n.isNaN)
    case let .string(s): return !s.isEmpty
    case .object: return true
    }
  }

  /// `===`.
  func strictEquals(_ other: JSValue) -> Bool {
    switch (self, other) {
    case (.undefined, .undefined), (.null, .null): return true
    case let (.bool(a), .bool(b)): return a == b
    case let (.number(a), .number(b)): return a == b
    case let (.string(a), .string(b)): return a.isExactly(b)
    case let (.object(_, i), .object(_, j)): return i >= 0 && i == j
    default: return false
    }
  }

  /// ToPrimitive for the values JSON can hold: objects become their `toString()`.
  var primitive: JSValue {
    if case let .object(json, _) = self { return .string(JSValue.objectString(json)) }
    return self
  }

  static func objectString(_ json: JSON) -> String {
    switch json {
    case let .array(elements):
      return elements.map { element -> String in
        switch element {
        case .null: return ""
        default: return JSValue(element).toJSString
        }
      }.joined(separator: ",")
    case .object: return "[object Object]"
    default: return JSValue(json).toJSString
    }
  }

  /// ToString.
  var toJSString: String {
    switch self {
    case .undefined: return "undefined"
    case .null: return "null"
    case let .bool(b): return b ? "true" : "false"
    case let .number(n): return JSNumber.toString(n)
    case let .string(s): return s
    case let .object(json, _): return JSValue.objectString(json)
    }
  }

  /// ToNumber.
  var toNumber: Double {
    switch self {
    case .undefined: return .nan
    case .null: return 0
    case let .bool(b): return b ? 1 : 0
    case let .number(n): return n
    case let .string(s): return JSValue.stringToNumber(s)
    case .object: return primitive.toNumber
    }
  }

  /// The abstract relational comparison `self < other`: `nil` stands for JavaScript's `undefined`
  /// (a NaN was involved), which makes every relational operator false.
  func lessThan(_ other: JSValue) -> Bool? {
    let px = primitive
    let py = other.primitive
    if case let .string(a) = px, case let .string(b) = py {
      return JSString.compareUTF16(a, b) < 0
    }
    let nx = px.toNumber
    let ny = py.toNumber
    if nx.isNaN || ny.isNaN { return nil }
    return nx < ny
  }

  static func > (a: JSValue, b: JSValue) -> Bool { b.lessThan(a) == true }
  static func < (a: JSValue, b: JSValue) -> Bool { a.lessThan(b) == true }
  static func >= (a: JSValue, b: JSValue) -> Bool { a.lessThan(b) == false }
  static func <= (a: JSValue, b: JSValue) -> Bool { b.lessThan(a) == false }

  /// StringToNumber (ECMA-262 §7.1.4.1.1).
  static func stringToNumber(_ s: String) -> Double {
    let trimmed = s.unicodeScalars.drop(while: isJSWhitespace).reversed().drop(while: isJSWhitespace).reversed()
    let text = String(String.UnicodeScalarView(trimmed))
    if text.isEmpty { return 0 }
    switch text {
    case "Infinity", "+Infinity": return .infinity
    case "-Infinity": return -.infinity
    default: break
    }
    let lower = text.lowercased()
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
      let digits = lower.dropFirst(2)
      guard !digits.isEmpty else { return .nan }
      var value = 0.0
      for c in digits {
        guard let d = c.hexDigitValue, d < radix else { return .nan }
        value = value * Double(radix) + Double(d)
      }
      return value
    }
    // StrDecimalLiteral: [+-] (digits [. digits] | . digits) [e [+-] digits], rebuilt in a form
    // Swift's parser accepts ("5." and ".5" become "5.0" and "0.5").
    var canonical = ""
    var integer = ""
    var fraction = ""
    var exponent = ""
    var i = text.startIndex
    if text[i] == "+" || text[i] == "-" {
      if text[i] == "-" { canonical = "-" }
      i = text.index(after: i)
    }
    while i < text.endIndex, text[i].isASCII, text[i].isNumber { integer.append(text[i]); i = text.index(after: i) }
    if i < text.endIndex, text[i] == "." {
      i = text.index(after: i)
      while i < text.endIndex, text[i].isASCII, text[i].isNumber { fraction.append(text[i]); i = text.index(after: i) }
    }
    guard !integer.isEmpty || !fraction.isEmpty else { return .nan }
    if i < text.endIndex, text[i] == "e" || text[i] == "E" {
      i = text.index(after: i)
      if i < text.endIndex, text[i] == "+" || text[i] == "-" {
        exponent.append(text[i])
        i = text.index(after: i)
      }
      var digits = ""
      while i < text.endIndex, text[i].isASCII, text[i].isNumber { digits.append(text[i]); i = text.index(after: i) }
      guard !digits.isEmpty else { return .nan }
      exponent = "e" + exponent + digits
    }
    guard i == text.endIndex else { return .nan }
    canonical += (integer.isEmpty ? "0" : integer) + "." + (fraction.isEmpty ? "0" : fraction) + exponent
    return Double(canonical) ?? .nan
  }

  static func isJSWhitespace(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
      0x3000, 0xFEFF:
      return true
    default: return false
    }
  }
}
