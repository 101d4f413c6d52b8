public import Foundation

/// A Swift value that can be written to an InstantDB attribute as JSON.
///
/// Generated mutation helpers use it to turn typed arguments into the JSON that InstaML carries,
/// without a throwing encoder in the way. Dates are written as ISO-8601 strings, which is what
/// `JSON.stringify(new Date())` produces in the TypeScript client (see ``InstantDateCoding``).
public protocol InstantValueConvertible: Sendable {
  /// The JSON form of the value.
  var instantValue: JSON { get }
}

extension JSON: InstantValueConvertible {
  public var instantValue: JSON { self }
}

extension String: InstantValueConvertible {
  public var instantValue: JSON { .string(self) }
}

extension Bool: InstantValueConvertible {
  public var instantValue: JSON { .bool(self) }
}

extension Double: InstantValueConvertible {
  public var instantValue: JSON { .number(self) }
}

extension Int: InstantValueConvertible {
  public var instantValue: JSON { .number(Double(self)) }
}

extension Date: InstantValueConvertible {
  public var instantValue: JSON { .string(InstantDateCoding.string(from: self)) }
}

extension Optional: InstantValueConvertible where Wrapped: InstantValueConvertible {
  public var instantValue: JSON { self?.instantValue ?? .null }
}

extension Array: InstantValueConvertible where Element: InstantValueConvertible {
  public var instantValue: JSON { .array(map(\.instantValue)) }
}

extension Dictionary: InstantValueConvertible where Key == String, Value: InstantValueConvertible {
  public var instantValue: JSON {
    var object = JSONObject(minimumCapacity: count)
    for (key, value) in sorted(by: { $0.key < $1.key }) { object[key] = value.instantValue }
    return .object(object)
  }
}
