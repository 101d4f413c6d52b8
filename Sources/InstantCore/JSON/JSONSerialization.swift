import OrderedCollections
extension JSON {
  /// How ``serialized(_:)`` lays out its output.
  public enum Style: Sendable {
    /// Compact, keys in stored order (what `JSON.stringify` gives).
    case compact
    /// Compact, keys sorted by UTF-16 code units at every level: the canonical form used for
    /// query identity and hashing.
    case canonical
    /// Indented by two spaces, keys in stored order.
    case pretty
  }

  /// The JSON text of this value. Numbers are written exactly as JavaScript writes them.
  public func serialized(_ style: Style = .compact) -> String {
    var out = ""
    out.reserveCapacity(64)
    write(to: &out, style: style, indent: 0)
    return out
  }

  /// The canonical text: sorted keys, compact. Two equal values always have the same canonical text.
  public var canonicalString: String { serialized(.canonical) }

  func write(to out: inout String, style: Style, indent: Int) {
    switch self {
    case .null: out += "null"
    case let .bool(b): out += b ? "true" : "false"
    case let .number(n): out += JSNumber.jsonString(n)
    case let .string(s): JSON.writeString(s, to: &out)
    case let .array(a):
      if a.isEmpty { out += "[]"; return }
      out += "["
      for (i, element) in a.enumerated() {
        if i > 0 { out += "," }
        if style == .pretty { out += "\n"; out += String(repeating: "  ", count: indent + 1) }
        element.write(to: &out, style: style, indent: indent + 1)
      }
      if style == .pretty { out += "\n"; out += String(repeating: "  ", count: indent) }
      out += "]"
    case let .object(o):
      if o.isEmpty { out += "{}"; return }
      out += "{"
      let keys = style == .canonical ? o.keys.sorted(by: JSString.utf16Less) : Array(o.keys)
      for (i, key) in keys.enumerated() {
        if i > 0 { out += "," }
        if style == .pretty { out += "\n"; out += String(repeating: "  ", count: indent + 1) }
        JSON.writeString(key, to: &out)
        out += style == .pretty ? ": " : ":"
        o[key]!.write(to: &out, style: style, indent: indent + 1)
      }
      if style == .pretty { out += "\n"; out += String(repeating: "  ", count: indent) }
      out += "}"
    }
  }

  /// A JSON string literal: escapes only what JSON requires, with the short escapes where JSON has
  /// them (also InstantBackup's jsonb text).
  package static func writeString(_ s: String, to out: inout String) {
    out += "\""
    var needsEscape = false
    for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
      needsEscape = true
      break
    }
    if !needsEscape {
      out += s
      out += "\""
      return
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

/// JavaScript's number-to-string conversion (ECMA-262 Number::toString), so that output matches
/// what the reference client prints byte for byte.
package enum JSNumber {
  static func jsonString(_ n: Double) -> String {
    n.isFinite ? toString(n) : "null"
  }

  static func toString(_ n: Double) -> String {
    if n.isNaN { return "NaN" }
    if n == 0 { return "0" }
    if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
    if n < 0 { return "-" + toString(-n) }
    if n < 1e21, n.rounded() == n, n < 9.007_199_254_740_992e15 {
      return String(Int64(n))
    }
    // Shortest round-trip digits and exponent from Swift's description.
    let (digits, pointPosition) = shortestDigits(n)
    let k = digits.count
    let e = pointPosition  // value = 0.d1d2...dk × 10^e  → JS's n = e
    if k <= e && e <= 21 {
      return digits + String(repeating: "0", count: e - k)
    }
    if 0 < e && e <= 21 {
      let idx = digits.index(digits.startIndex, offsetBy: e)
      return String(digits[..<idx]) + "." + String(digits[idx...])
    }
    if -6 < e && e <= 0 {
      return "0." + String(repeating: "0", count: -e) + digits
    }
    let exp = e - 1
    let sign = exp < 0 ? "-" : "+"
    if k == 1 { return digits + "e" + sign + String(abs(exp)) }
    let first = digits.prefix(1)
    return first + "." + digits.dropFirst() + "e" + sign + String(abs(exp))
  }

  /// The shortest decimal digits of a positive finite `n`, and the position of the decimal point
  /// relative to them (n = 0.digits × 10^position).
  package static func shortestDigits(_ n: Double) -> (digits: String, point: Int) {
    let text = n.description  // e.g. "123.45", "1e-07", "1.5e+22"
    var mantissa = Substring(text)
    var exponent = 0
    if let eIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<eIndex]
      exponent = Int(text[text.index(after: eIndex)...]) ?? 0
    }
    var intPart = mantissa
    var fracPart: Substring = ""
    if let dot = mantissa.firstIndex(of: ".") {
      intPart = mantissa[..<dot]
      fracPart = mantissa[mantissa.index(after: dot)...]
    }
    var digits = String(intPart) + String(fracPart)
    var position = intPart.count + exponent
    // Strip leading zeros (e.g. "0.001" → "0001").
    while digits.count > 1, digits.first == "0" {
      digits.removeFirst()
      position -= 1
    }
    while digits.count > 1, digits.last == "0" { digits.removeLast() }
    return (digits, position)
  }
}
