public import Foundation
import InstantCore

/// Reads and writes `i.date()` attributes.
///
/// InstantDB stores a date as the JSON value that was written: a number of milliseconds since
/// 1970 or a string, which the server accepts when JavaScript's `Date.parse` can read it. So
/// every value the server stored decodes here: numbers, and every string form of InstantCore's
/// `JSDate.parse(_:)` (ISO 8601 with or without `T`, offset or fraction; date-only; `M/D/YYYY`;
/// month names; RFC 1123; `Date.prototype.toString()`), plus a JSON-quoted string of any of them,
/// which the hosted server also accepts. Dates are written as `Date.prototype.toISOString()` does
/// (`2026-01-02T03:04:05.678Z`), which is what the TypeScript client sends for a `Date`: its
/// messages go through `JSON.stringify`, which calls `toJSON()`.
public enum InstantDateCoding {
  /// The date a stored string denotes, or `nil` when JavaScript could not read it either.
  /// Strings without an offset are read as UTC, as the server does.
  public static func date(from string: String) -> Date? {
    var milliseconds = JSDate.parse(string)
    if milliseconds.isNaN, let unquoted = unquoted(string) {
      milliseconds = JSDate.parse(unquoted)
    }
    return milliseconds.isNaN ? nil : date(fromMilliseconds: milliseconds)
  }

  /// The date `milliseconds` after 1970-01-01T00:00:00Z, as `new Date(milliseconds)` reads it
  /// (fractions of a millisecond are dropped).
  public static func date(fromMilliseconds milliseconds: Double) -> Date {
    Date(timeIntervalSince1970: milliseconds.rounded(.towardZero) / 1000)
  }

  /// The date a stored JSON value denotes: a number of milliseconds or a date string.
  public static func date(from value: JSON) -> Date? {
    switch value {
    case .number(let milliseconds) where milliseconds.isFinite: date(fromMilliseconds: milliseconds)
    case .string(let string): date(from: string)
    default: nil
    }
  }

  /// Milliseconds since 1970, to the nearest millisecond: what `date.getTime()` gives in JavaScript.
  public static func milliseconds(from date: Date) -> Double {
    (date.timeIntervalSince1970 * 1000).rounded()
  }

  /// Formats `date` as `Date.prototype.toISOString()` does: UTC with milliseconds, for example
  /// `2026-01-02T03:04:05.678Z`, and a signed six-digit year outside 0…9999.
  public static func string(from date: Date) -> String {
    let milliseconds = Int64(milliseconds(from: date))
    let days = floorDivide(milliseconds, 86_400_000)
    let timeOfDay = Int(milliseconds - days * 86_400_000)
    let (year, month, day) = civil(fromDays: days)
    let yearText =
      (0...9999).contains(year) ? padded(year, 4) : (year < 0 ? "-" : "+") + padded(abs(year), 6)
    return "\(yearText)-\(padded(month, 2))-\(padded(day, 2))T\(padded(timeOfDay / 3_600_000, 2)):"
      + "\(padded(timeOfDay / 60_000 % 60, 2)):\(padded(timeOfDay / 1000 % 60, 2)).\(padded(timeOfDay % 1000, 3))Z"
  }

  private static func unquoted(_ string: String) -> String? {
    guard string.count >= 2, string.first == "\"", string.last == "\"" else { return nil }
    // Not a JSON string: the caller reports the value as not a date (nothing is dropped).
    return (try? JSON.parse(string))?.stringValue
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }

  /// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
  private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

extension KeyedDecodingContainer {
  /// Decodes an `i.date()` attribute stored as milliseconds since 1970 or as any date string the
  /// server accepts.
  public func decodeInstantDate(forKey key: Key) throws -> Date {
    let value = try decode(JSON.self, forKey: key)
    guard let date = InstantDateCoding.date(from: value) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self,
        debugDescription: "Expected milliseconds since 1970 or a date string, found \(value)."
      )
    }
    return date
  }

  /// Decodes an optional `i.date()` attribute; a missing key or `null` gives `nil`.
  public func decodeInstantDateIfPresent(forKey key: Key) throws -> Date? {
    guard contains(key), try !decodeNil(forKey: key) else { return nil }
    return try decodeInstantDate(forKey: key)
  }
}

extension KeyedEncodingContainer {
  /// Encodes an `i.date()` attribute as `Date.prototype.toISOString()` does.
  public mutating func encodeInstantDate(_ date: Date, forKey key: Key) throws {
    try encode(InstantDateCoding.string(from: date), forKey: key)
  }

  /// Encodes an optional `i.date()` attribute, leaving the key out when it is `nil`.
  public mutating func encodeInstantDateIfPresent(_ date: Date?, forKey key: Key) throws {
    guard let date else { return }
    try encodeInstantDate(date, forKey: key)
  }
}

extension KeyedDecodingContainer {
  /// Decodes a has-one link, which query results may carry as an object or as an array of at
  /// most one object; a missing key, `null` or an empty array gives `nil`.
  public func decodeInstantLinkIfPresent<Target: Decodable>(_ type: Target.Type, forKey key: Key) throws -> Target? {
    guard contains(key), try !decodeNil(forKey: key) else { return nil }
    do {
      return try decode([Target].self, forKey: key).first
    } catch let DecodingError.typeMismatch(_, context) where context.codingPath.count == codingPath.count + 1 {
      // The value itself is not an array, so it is the object. An array whose object does not
      // decode throws that object's error instead (its path is deeper), not a misleading one.
      return try decode(Target.self, forKey: key)
    }
  }

  /// Decodes a required `i.json()` or `i.any()` attribute; a missing key gives `.null`.
  ///
  /// Schemas exported from the dashboard before optional attributes existed declare every
  /// attribute `i.any()` without `.optional()`, and the server never enforced that, so rows
  /// without the attribute are common. JSON can say "nothing" itself, so such a row still
  /// decodes instead of failing the whole query.
  public func decodeInstantJSON(forKey key: Key) throws -> JSON {
    try decodeIfPresent(JSON.self, forKey: key) ?? .null
  }
}
