/// A span of time with nanosecond precision. CEL limits durations to what one Int64 of
/// nanoseconds holds (about ±292 years); arithmetic past that is an overflow error.
public struct CELDuration: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let nanoseconds: Int64

  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// A duration of whole seconds, or nil past the range.
  public init?(seconds: Int64) {
    let (n, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return nil }
    self.nanoseconds = n
  }

  /// Parses the form CEL's `duration(string)` takes: an optional sign and a sequence of decimal
  /// numbers, each with a unit (`h`, `m`, `s`, `ms`, `us`, `ns`), like `1h30m` or `-1.5s`; or `0`.
  public init?(parsing text: String) {
    guard case .value(let n) = DurationText.parse(text) else { return nil }
    self.nanoseconds = n
  }

  public static func < (lhs: CELDuration, rhs: CELDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

  /// Whole seconds (truncated toward zero) and the remaining nanoseconds, of the same sign.
  var secondsAndNanos: (Int64, Int32) {
    (nanoseconds / 1_000_000_000, Int32(nanoseconds % 1_000_000_000))
  }

  /// Seconds with a `s` suffix and 3, 6 or 9 fractional digits when needed, e.g. `60.001s`
  /// (the protobuf form cel-java's `string(duration)` gives).
  public var description: String {
    let (seconds, nanos) = secondsAndNanos
    let sign = nanoseconds < 0 ? "-" : ""
    return sign + String(seconds.magnitude) + RFC3339.fraction(Int32(nanos.magnitude)) + "s"
  }
}

/// Go-style duration text (what CEL specifies for `duration(string)`).
enum DurationText {
  enum Parsed: Equatable {
    case value(Int64)
    case outOfRange
    case malformed
  }

  static func parse(_ text: String) -> Parsed {
    var scalars = Array(text.unicodeScalars)[...]
    var negative = false
    if let first = scalars.first, first == "-" || first == "+" {
      negative = first == "-"
      scalars = scalars.dropFirst()
    }
    if scalars.count == 1 && scalars.first == "0" { return .value(0) }
    guard !scalars.isEmpty else { return .malformed }
    var total: Int64 = 0  // accumulated as a negative number, which holds Int64.min
    var overflowed = false
    while !scalars.isEmpty {
      var whole: Int64 = 0
      var sawDigit = false
      while let c = scalars.first, let d = digit(c) {
        let (m, o1) = whole.multipliedReportingOverflow(by: 10)
        let (a, o2) = m.addingReportingOverflow(d)
        if o1 || o2 { overflowed = true }
        whole = a
        sawDigit = true
        scalars = scalars.dropFirst()
      }
      var fraction: Int64 = 0
      var scale: Int64 = 1
      if scalars.first == "." {
        scalars = scalars.dropFirst()
        while let c = scalars.first, let d = digit(c) {
          // Digits past nanosecond precision of the largest unit cannot matter.
          if scale < 1_000_000_000_000_000 {
            fraction = fraction * 10 + d
            scale *= 10
          }
          sawDigit = true
          scalars = scalars.dropFirst()
        }
      }
      guard sawDigit else { return .malformed }
      var unitText = ""
      while let c = scalars.first, c != ".", digit(c) == nil {
        unitText.unicodeScalars.append(c)
        scalars = scalars.dropFirst()
      }
      guard let unit = units[unitText] else { return .malformed }
      let (w, o1) = whole.multipliedReportingOverflow(by: unit)
      // fraction / scale of a unit, exactly: the 128-bit product cannot overflow, and the
      // quotient is less than one unit.
      let fractional = scale.dividingFullWidth(unit.multipliedFullWidth(by: fraction)).quotient
      let (part, o2) = w.addingReportingOverflow(fractional)
      let (sum, o3) = total.subtractingReportingOverflow(part)
      if o1 || o2 || o3 { overflowed = true }
      total = sum
    }
    if overflowed { return .outOfRange }
    if negative { return .value(total) }
    let (positive, overflow) = Int64(0).subtractingReportingOverflow(total)
    return overflow ? .outOfRange : .value(positive)
  }

  private static let units: [String: Int64] = [
    "ns": 1, "us": 1000, "\u{00B5}s": 1000, "\u{03BC}s": 1000, "ms": 1_000_000,
    "s": 1_000_000_000, "m": 60_000_000_000, "h": 3_600_000_000_000,
  ]

  private static func digit(_ c: Unicode.Scalar) -> Int64? {
    ("0"..."9").contains(c) ? Int64(c.value - 48) : nil
  }
}
