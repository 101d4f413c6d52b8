import Foundation

/// Reads and writes `i.date()` attributes.
///
/// InstantDB stores a date as the JSON value that was written: a number of milliseconds since
/// 1970 or a string. Generated entities decode both and write ISO-8601 strings with
/// milliseconds.
public enum InstantDateCoding {
  /// Parses a date string the way InstantDB does for the common forms: ISO-8601 with or without
  /// fractional seconds and offset (a space may replace the `T`), and a bare `yyyy-MM-dd` (UTC).
  public static func date(from string: String) -> Date? {
    let trimmed = string.trimmingCharacters(in: .whitespaces)
    let normalized: String
    if trimmed.count > 10, trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)] == " " {
      var characters = Array(trimmed)
      characters[10] = "T"
      normalized = String(characters)
    } else {
      normalized = trimmed
    }
    for options in [
      ISO8601DateFormatter.Options.withInternetDateTime.union(.withFractionalSeconds),
      [.withInternetDateTime],
    ] {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = options
      if let date = formatter.date(from: normalized) { return date }
    }
    if !normalized.hasSuffix("Z"), !normalized.contains("+"), normalized.count > 10,
      let date = date(from: normalized + "Z")
    {
      return date
    }
    let dayOnly = ISO8601DateFormatter()
    dayOnly.formatOptions = [.withFullDate]
    return normalized.count == 10 ? dayOnly.date(from: normalized) : nil
  }

  /// Formats `date` as ISO-8601 in UTC with milliseconds, for example `2026-01-02T03:04:05.678Z`.
  public static func string(from date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }
}

extension KeyedDecodingContainer {
  /// Decodes an `i.date()` attribute stored as milliseconds since 1970 or as a date string.
  public func decodeInstantDate(forKey key: Key) throws -> Date {
    if let milliseconds = try? decode(Double.self, forKey: key) {
      return Date(timeIntervalSince1970: milliseconds / 1000)
    }
    let string = try decode(String.self, forKey: key)
    guard let date = InstantDateCoding.date(from: string) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self,
        debugDescription: "Expected milliseconds since 1970 or an ISO-8601 date string, found \"\(string)\"."
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
  /// Encodes an `i.date()` attribute as an ISO-8601 string with milliseconds.
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
    if let many = try? decode([Target].self, forKey: key) { return many.first }
    return try decode(Target.self, forKey: key)
  }
}
