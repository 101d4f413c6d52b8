/// The reference's `compareOrder` and `uuidCompare`.
enum Ordering {
  /// Compares two sort keys: equal values (or two nullish ones) fall back to the entity ids'
  /// byte order; nullish sorts first; `string`-typed attrs use ICU collation; everything else
  /// JavaScript's `>`.
  static func compare(_ idA: UUIDKey, _ a: JSValue, _ idB: UUIDKey, _ b: JSValue, dataType: String?) -> Int {
    if a.strictEquals(b) || (a.isNullish && b.isNullish) { return idA.compare(idB) }
    if b.isNullish { return 1 }
    if a.isNullish { return -1 }
    if dataType == "string" { return JSCollator.compare(a.toJSString, b.toJSString) }
    return a > b ? 1 : -1
  }

  /// `comparableDate`: nullish stays as is, anything else becomes epoch ms (NaN if unreadable).
  static func comparableDate(_ v: JSValue) -> JSValue {
    v.isNullish ? v : .number(JSDate.timeValue(v))
  }
}

/// An entity id as the 16 "bytes" `uuidCompare` reads: `parseInt` of each pair of hex digits
/// once dashes are removed (NaN where a pair is not hex, as in JavaScript).
struct UUIDKey {
  let bytes: [Double]

  init(_ id: String) {
    let hex = Array(id.utf16.filter { $0 != 0x2D })
    var bytes: [Double] = []
    bytes.reserveCapacity((hex.count + 1) / 2)
    var i = 0
    while i < hex.count {
      bytes.append(UUIDKey.parseIntHex(Array(hex[i..<min(i + 2, hex.count)])))
      i += 2
    }
    self.bytes = bytes
  }

  /// `parseInt(s, 16)` for a one- or two-unit string.
  static func parseIntHex(_ units: [UInt16]) -> Double {
    var i = 0
    while i < units.count, units[i] < 128, JSValue.isJSWhitespace(Unicode.Scalar(UInt8(units[i]))) { i += 1 }
    var sign = 1.0
    if i < units.count, units[i] == 0x2D || units[i] == 0x2B {
      if units[i] == 0x2D { sign = -1 }
      i += 1
    }
    if i + 1 < units.count, units[i] == 0x30, units[i + 1] == 0x78 || units[i + 1] == 0x58 { i += 2 }
    var value = 0.0
    var any = false
    while i < units.count, let d = hexDigit(units[i]) {
      value = value * 16 + Double(d)
      any = true
      i += 1
    }
    return any ? sign * value : .nan
  }

  static func hexDigit(_ u: UInt16) -> Int? {
    switch u {
    case 0x30...0x39: return Int(u - 0x30)
    case 0x61...0x66: return Int(u - 0x61 + 10)
    case 0x41...0x46: return Int(u - 0x41 + 10)
    default: return nil
    }
  }

  /// `compareByteArrays(a, b)`: over a's length; comparisons with NaN or missing bytes are false.
  func compare(_ other: UUIDKey) -> Int {
    for i in 0..<bytes.count {
      let x = bytes[i]
      let y = i < other.bytes.count ? other.bytes[i] : .nan
      if x < y { return -1 }
      if x > y { return 1 }
    }
    return 0
  }
}
