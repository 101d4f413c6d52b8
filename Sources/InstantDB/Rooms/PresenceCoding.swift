import Foundation
import InstantCore

/// Converts typed presence and topic payloads to and from the wire's JSON (``JSON`` itself passes
/// through untouched).
enum PresenceCoding {
  static func encode<Value: Encodable>(_ value: Value) throws -> JSON {
    if let json = value as? JSON { return json }
    return try JSON.parse(bytes: JSONEncoder().encode(value))
  }

  static func decode<Value: Decodable>(_ json: JSON, as type: Value.Type = Value.self) throws -> Value {
    try JSONValueDecoder().decode(Value.self, from: json)
  }
}
