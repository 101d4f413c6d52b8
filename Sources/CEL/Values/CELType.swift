/// A CEL type as a value: what `type(x)` returns and what names like `int` or `string` denote.
public struct CELType: Sendable, Hashable, CustomStringConvertible {
  /// The type's CEL name, e.g. `int`, `map` or `google.protobuf.Timestamp`.
  public let name: String

  public init(_ name: String) { self.name = name }

  public var description: String { name }

  public static let null = CELType("null_type")
  public static let bool = CELType("bool")
  public static let int = CELType("int")
  public static let uint = CELType("uint")
  public static let double = CELType("double")
  public static let string = CELType("string")
  public static let bytes = CELType("bytes")
  public static let list = CELType("list")
  public static let map = CELType("map")
  public static let timestamp = CELType("google.protobuf.Timestamp")
  public static let duration = CELType("google.protobuf.Duration")
  public static let type = CELType("type")

  /// The names a program can use for types: `type(x) == int`.
  static let named: [String: CELType] = [
    "null_type": .null, "bool": .bool, "int": .int, "uint": .uint, "double": .double,
    "string": .string, "bytes": .bytes, "list": .list, "map": .map, "type": .type,
    "google.protobuf.Timestamp": .timestamp, "google.protobuf.Duration": .duration,
  ]
}
