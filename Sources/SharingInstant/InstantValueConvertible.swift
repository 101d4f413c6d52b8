import Foundation

/// A Swift value that can be written to an InstantDB attribute as JSON.
///
/// Generated mutation helpers use it to turn typed arguments into the JSON that InstaML carries,
/// without a throwing encoder in the way. Dates are written as ISO-8601 strings, which is what
/// `JSON.stringify(new Date())` produces in the TypeScript client.
public protocol InstantValueConvertible: Sendable {
  /// The JSON form of the value.
  var instantValue: JSONValue { get }
}

extension JSONValue: InstantValueConvertible {
  public var instantValue: JSONValue { self }
}

extension String: InstantValueConvertible {
  public var instantValue: JSONValue { .string(self) }
}

extension Bool: InstantValueConvertible {
  public var instantValue: JSONValue { .bool(self) }
}

extension Double: InstantValueConvertible {
  public var instantValue: JSONValue { .number(self) }
}

extension Int: InstantValueConvertible {
  public var instantValue: JSONValue { .number(Double(self)) }
}

extension Date: InstantValueConvertible {
  public var instantValue: JSONValue { .string(InstantDateCoding.string(from: self)) }
}

extension Optional: InstantValueConvertible where Wrapped: InstantValueConvertible {
  public var instantValue: JSONValue { self?.instantValue ?? .null }
}

extension Array: InstantValueConvertible where Element: InstantValueConvertible {
  public var instantValue: JSONValue { .array(map(\.instantValue)) }
}

extension Dictionary: InstantValueConvertible where Key == String, Value: InstantValueConvertible {
  public var instantValue: JSONValue { .object(mapValues(\.instantValue)) }
}
