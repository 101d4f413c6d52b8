import Foundation

/// `java.time.Instant.toString` for a `Date`: `2026-08-12T19:59:17.123456Z`, in UTC, the fraction
/// in groups of three digits as needed (none when it is zero), to the microsecond.
enum ISOInstant {
  static func string(_ date: Date) -> String {
    let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    let (seconds, fraction) = floorDivMod(micros, 1_000_000)
    let (days, secondOfDay) = floorDivMod(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    var out = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    out += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    if fraction != 0 {
      out += fraction % 1000 == 0 ? "." + pad(fraction / 1000, 3) : "." + pad(fraction, 6)
    }
    return out + "Z"
  }

  /// The UTC calendar fields of `date`, for zip headers: (year, month, day, hour, minute, second).
  static func utcFields(_ date: Date) -> (Int64, Int64, Int64, Int64, Int64, Int64) {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    let (days, secondOfDay) = floorDivMod(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
  }

  private static func floorDivMod(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    let q = a / b
    let r = a % b
    return r < 0 ? (q - 1, r + b) : (q, r)
  }

  private static func pad(_ n: Int64, _ width: Int) -> String {
    let digits = String(abs(n))
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return n < 0 ? "-" + padded : padded
  }

  /// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
  private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let y = yoe + era * 400
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? y + 1 : y, m, d)
  }
}
