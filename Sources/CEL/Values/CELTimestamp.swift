/// A point in time, UTC, with nanosecond precision, in the range CEL allows:
/// 0001-01-01T00:00:00Z through 9999-12-31T23:59:59.999999999Z.
public struct CELTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
  public let seconds: Int64
  /// The fraction of the second, 0 ..< 1_000_000_000.
  public let nanos: Int32

  static let minSeconds: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
  static let maxSeconds: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z

  /// A timestamp, or nil when it falls outside CEL's range or `nanos` is not a fraction.
  public init?(seconds: Int64, nanos: Int32 = 0) {
    guard (0..<1_000_000_000).contains(nanos),
      (Self.minSeconds...Self.maxSeconds).contains(seconds)
    else { return nil }
    self.seconds = seconds
    self.nanos = nanos
  }

  /// Parses RFC 3339 (`2027-01-01T00:00:00Z`, `2027-01-01T09:30:00.25+02:00`), which is what
  /// CEL's `timestamp(string)` accepts. Nil for anything else or out of range.
  public init?(rfc3339 text: String) {
    guard let parsed = RFC3339.parse(text) else { return nil }
    self.init(seconds: parsed.seconds, nanos: parsed.nanos)
  }

  public static func < (lhs: CELTimestamp, rhs: CELTimestamp) -> Bool {
    (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
  }

  /// RFC 3339 in UTC, with 3, 6 or 9 fractional digits when the fraction is not zero (the form
  /// cel-java's `string(timestamp)` gives).
  public var description: String {
    let f = CivilTime.fields(epochSeconds: seconds, offsetSeconds: 0)
    var out = pad(f.year, 4) + "-" + pad(f.month, 2) + "-" + pad(f.day, 2)
    out += "T" + pad(f.hour, 2) + ":" + pad(f.minute, 2) + ":" + pad(f.second, 2)
    out += RFC3339.fraction(nanos)
    return out + "Z"
  }

  /// Adds a duration; nil when the result leaves the timestamp range.
  func adding(_ duration: CELDuration) -> CELTimestamp? {
    let (wholeSeconds, fraction) = duration.secondsAndNanos
    var newNanos = Int64(nanos) + Int64(fraction)
    var (newSeconds, overflow) = seconds.addingReportingOverflow(wholeSeconds)
    if overflow { return nil }
    if newNanos >= 1_000_000_000 {
      newNanos -= 1_000_000_000
      newSeconds += 1
    } else if newNanos < 0 {
      newNanos += 1_000_000_000
      newSeconds -= 1
    }
    return CELTimestamp(seconds: newSeconds, nanos: Int32(newNanos))
  }

  /// The duration from `other` to this timestamp; nil when it exceeds the duration range.
  func since(_ other: CELTimestamp) -> CELDuration? {
    let secondsDelta = seconds - other.seconds  // cannot overflow within the timestamp range
    let (scaled, overflow) = secondsDelta.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return nil }
    let (total, overflow2) = scaled.addingReportingOverflow(Int64(nanos) - Int64(other.nanos))
    return overflow2 ? nil : CELDuration(nanoseconds: total)
  }
}

private func pad(_ value: Int64, _ width: Int) -> String {
  let digits = String(value)
  return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// RFC 3339 text, both ways.
enum RFC3339 {
  /// `.123`, `.123456` or `.123456789`, or nothing for a whole second.
  static func fraction(_ nanos: Int32) -> String {
    guard nanos != 0 else { return "" }
    if nanos % 1_000_000 == 0 { return "." + pad(Int64(nanos / 1_000_000), 3) }
    if nanos % 1000 == 0 { return "." + pad(Int64(nanos / 1000), 6) }
    return "." + pad(Int64(nanos), 9)
  }

  /// Seconds since the epoch and the fraction, for `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
  static func parse(_ text: String) -> (seconds: Int64, nanos: Int32)? {
    let s = Array(text.utf8)
    var i = 0
    func number(_ width: Int) -> Int64? {
      guard i + width <= s.count else { return nil }
      var value: Int64 = 0
      for k in i..<(i + width) {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s[k]) else { return nil }
        value = value * 10 + Int64(s[k] - UInt8(ascii: "0"))
      }
      i += width
      return value
    }
    func expect(_ characters: String) -> Bool {
      guard i < s.count, characters.utf8.contains(s[i]) else { return false }
      i += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
      expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
      let second = number(2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= CivilTime.daysInMonth(year: year, month: month),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var nanos: Int64 = 0
    if i < s.count, s[i] == UInt8(ascii: ".") {
      i += 1
      var digits = 0
      while i < s.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s[i]) {
        if digits < 9 { nanos = nanos * 10 + Int64(s[i] - UInt8(ascii: "0")) }
        digits += 1
        i += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<max(digits, 9) { nanos *= 10 }
    }
    var offset: Int64 = 0
    if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
      let sign: Int64 = s[i] == UInt8(ascii: "-") ? -1 : 1
      i += 1
      guard let oh = number(2), expect(":"), let om = number(2), oh < 24, om < 60 else { return nil }
      offset = sign * (oh * 3600 + om * 60)
    } else if !expect("Zz") {
      return nil
    }
    guard i == s.count else { return nil }
    let days = CivilTime.days(year: year, month: month, day: day)
    let seconds = days * CivilTime.secondsPerDay + hour * 3600 + minute * 60 + second - offset
    return (seconds, Int32(nanos))
  }
}
