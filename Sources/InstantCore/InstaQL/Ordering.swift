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

/// A canonical UUID's 16 bytes as two integers (`valid` is false for any other string).
struct UUIDBits: Sendable, Equatable {
  var hi: UInt64
  var lo: UInt64

  static let invalid = UUIDBits(hi: .max, lo: .max)
  var isValid: Bool { self != .invalid }

  init(hi: UInt64, lo: UInt64) {
    self.hi = hi
    self.lo = lo
  }

  /// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case).
  init(_ s: String) {
    var hi: UInt64 = 0
    var lo: UInt64 = 0
    var digits = 0
    var ok = true
    var count = 0
    for (i, u) in s.utf8.enumerated() {
      count += 1
      if i == 8 || i == 13 || i == 18 || i == 23 {
        if u != 0x2D { ok = false; break }
        continue
      }
      guard let d = UUIDKey.hexDigit(UInt16(u)) else { ok = false; break }
      if digits < 16 { hi = hi << 4 | UInt64(d) } else { lo = lo << 4 | UInt64(d) }
      digits += 1
    }
    self = ok && count == 36 && digits == 32 ? UUIDBits(hi: hi, lo: lo) : .invalid
  }
}

/// An entity id as the 16 "bytes" `uuidCompare` reads: `parseInt` of each pair of hex digits
/// once dashes are removed (NaN where a pair is not hex, as in JavaScript). Canonical UUIDs
/// compare as two integers; anything else takes the general path.
struct UUIDKey {
  let bits: UUIDBits
  let bytes: [Double]

  init(bits: UUIDBits, id: @autoclosure () -> String) {
    self.bits = bits
    self.bytes = bits.isValid ? [] : UUIDKey.parseBytes(id())
  }

  init(_ id: String) {
    let bits = UUIDBits(id)
    self.init(bits: bits, id: id)
  }

  static func parseBytes(_ id: String) -> [Double] {
    let hex = Array(id.utf16.filter { $0 != 0x2D })
    var bytes: [Double] = []
    bytes.reserveCapacity((hex.count + 1) / 2)
    var i = 0
    while i < hex.count {
      bytes.append(UUIDKey.parseIntHex(Array(hex[i..<min(i + 2, hex.count)])))
      i += 2
    }
    return bytes
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

  static func bytes(of bits: UUIDBits) -> [Double] {
    (0..<8).map { Double((bits.hi >> UInt64(56 - 8 * $0)) & 0xFF) } + (0..<8).map { Double((bits.lo >> UInt64(56 - 8 * $0)) & 0xFF) }
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
    if bits.isValid && other.bits.isValid {
      if bits.hi != other.bits.hi { return bits.hi < other.bits.hi ? -1 : 1 }
      if bits.lo != other.bits.lo { return bits.lo < other.bits.lo ? -1 : 1 }
      return 0
    }
    let mine = bits.isValid ? UUIDKey.bytes(of: bits) : bytes
    let theirs = other.bits.isValid ? UUIDKey.bytes(of: other.bits) : other.bytes
    for i in 0..<mine.count {
      let x = mine[i]
      let y = i < theirs.count ? theirs[i] : .nan
      if x < y { return -1 }
      if x > y { return 1 }
    }
    return 0
  }
}
