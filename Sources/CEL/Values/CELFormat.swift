/// Text forms of values: `string(x)` conversions and the CEL-source rendering used in messages.
enum CELFormat {
  /// `string(double)` the way cel-java (and so InstantDB) writes it: Java's `Double.toString`,
  /// which keeps a `.0` on whole numbers and switches to `1.0E7` style outside [1e-3, 1e7).
  static func javaDouble(_ d: Double) -> String {
    if d.isNaN { return "NaN" }
    if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
    if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
    let (negative, digits, exponent) = shortestDigits(d)
    var out = negative ? "-" : ""
    let magnitude = abs(d)
    if magnitude >= 1e-3 && magnitude < 1e7 {
      // `exponent` is the power of ten of the first digit.
      if exponent >= 0 {
        let intCount = exponent + 1
        let intPart = digits.count >= intCount
          ? String(digits.prefix(intCount))
          : digits + String(repeating: "0", count: intCount - digits.count)
        let fraction = digits.count > intCount ? String(digits.dropFirst(intCount)) : "0"
        out += intPart + "." + fraction
      } else {
        out += "0." + String(repeating: "0", count: -exponent - 1) + digits
      }
    } else {
      let first = digits.prefix(1)
      let rest = digits.count > 1 ? String(digits.dropFirst()) : "0"
      out += first + "." + rest + "E" + String(exponent)
    }
    return out
  }

  /// The shortest round-tripping decimal digits of a finite, non-zero double (Swift's own
  /// `description` finds them) and the power of ten of the first digit.
  private static func shortestDigits(_ d: Double) -> (negative: Bool, digits: String, exponent: Int) {
    var text = Substring(d.description)
    let negative = text.hasPrefix("-")
    if negative { text = text.dropFirst() }
    var exponentAdjust = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      exponentAdjust = Int(text[text.index(after: e)...]) ?? 0
      text = text[..<e]
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let intPart = String(parts[0])
    let fracPart = parts.count > 1 ? String(parts[1]) : ""
    var all = intPart + fracPart
    var pointPosition = intPart.count  // digits before the decimal point
    while all.hasPrefix("0") && all.count > 1 {
      all.removeFirst()
      pointPosition -= 1
    }
    while all.hasSuffix("0") && all.count > 1 { all.removeLast() }
    return (negative, all, pointPosition - 1 + exponentAdjust)
  }

  /// A double as a CEL literal that reads back as the same double.
  static func doubleLiteral(_ d: Double) -> String {
    if d.isNaN { return "double(\"NaN\")" }
    if d.isInfinite { return d < 0 ? "double(\"-Infinity\")" : "double(\"Infinity\")" }
    let text = d.description
    return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
  }

  /// A string as a double-quoted CEL literal.
  static func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\x" + hex2(UInt8(scalar.value))
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// Bytes as a double-quoted CEL literal body (printable ASCII kept, the rest escaped).
  static func quotedBytes(_ bytes: [UInt8]) -> String {
    var out = "\""
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\""): out += "\\\""
      case UInt8(ascii: "\\"): out += "\\\\"
      case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
      default: out += "\\x" + hex2(byte)
      }
    }
    return out + "\""
  }

  private static func hex2(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }
}
