/// Timestamp and duration accessors: `getFullYear()`, `getMonth()`, …, `getMilliseconds()`.
///
/// Timestamps read in UTC, or in a time zone given as the argument: `UTC` or a fixed offset like
/// `+02:00`. Named zones (`Europe/Paris`) would need the IANA database, which this dependency-free
/// module does not carry; they are an `unsupported` error that says so.
enum TimeFunctions {
  static let accessors: Set<String> = [
    "getFullYear", "getMonth", "getDate", "getDayOfMonth", "getDayOfYear", "getDayOfWeek",
    "getHours", "getMinutes", "getSeconds", "getMilliseconds",
  ]

  static func accessor(_ name: String, _ receiver: CELValue, _ args: [CELValue]) throws(CELEvaluationError) -> CELValue {
    switch receiver {
    case .timestamp(let t):
      var offset: Int64 = 0
      if let zone = args.first {
        guard case .string(let zoneName) = zone else { throw Builtins.noOverload(name, [receiver] + args) }
        offset = try offsetSeconds(zoneName)
      }
      let f = CivilTime.fields(epochSeconds: t.seconds, offsetSeconds: offset)
      switch name {
      case "getFullYear": return .int(f.year)
      case "getMonth": return .int(f.month - 1)
      case "getDate": return .int(f.day)
      case "getDayOfMonth": return .int(f.day - 1)
      case "getDayOfYear": return .int(f.dayOfYear)
      case "getDayOfWeek": return .int(f.dayOfWeek)
      case "getHours": return .int(f.hour)
      case "getMinutes": return .int(f.minute)
      case "getSeconds": return .int(f.second)
      default: return .int(Int64(t.nanos / 1_000_000))
      }
    case .duration(let d) where args.isEmpty:
      switch name {
      case "getHours": return .int(d.nanoseconds / 3_600_000_000_000)
      case "getMinutes": return .int(d.nanoseconds / 60_000_000_000)
      case "getSeconds": return .int(d.nanoseconds / 1_000_000_000)
      case "getMilliseconds": return .int(d.nanoseconds % 1_000_000_000 / 1_000_000)
      default: throw Builtins.noOverload(name, [receiver] + args)
      }
    default:
      throw Builtins.noOverload(name, [receiver] + args)
    }
  }

  /// `UTC`, or `±HH:MM` (the sign may be left out for east of UTC).
  static func offsetSeconds(_ zone: String) throws(CELEvaluationError) -> Int64 {
    if zone == "UTC" || zone == "Z" { return 0 }
    var scalars = Array(zone.unicodeScalars)[...]
    var sign: Int64 = 1
    if let first = scalars.first, first == "+" || first == "-" {
      sign = first == "-" ? -1 : 1
      scalars = scalars.dropFirst()
    }
    let digits = Array(scalars)
    if digits.count == 5, digits[2] == ":",
      digits.indices.allSatisfy({ $0 == 2 || ("0"..."9").contains(digits[$0]) }),
      let hours = Int64(String(String.UnicodeScalarView(digits[0..<2]))),
      let minutes = Int64(String(String.UnicodeScalarView(digits[3..<5]))),
      hours < 24, minutes < 60
    {
      return sign * (hours * 3600 + minutes * 60)
    }
    throw CELEvaluationError(
      .unsupported, "time zone '\(zone)' is not supported; use 'UTC' or a fixed offset like '+02:00'")
  }
}
