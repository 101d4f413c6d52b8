/// A Swift type as the generator writes it.
indirect enum SwiftType: Hashable, Sendable {
  case string
  case double
  case bool
  case date
  case json
  case named(String)
  case array(SwiftType)
  case dictionary(SwiftType)
  case optional(SwiftType)

  var code: String {
    switch self {
    case .string: "String"
    case .double: "Double"
    case .bool: "Bool"
    case .date: "Date"
    case .json: "JSONValue"
    case .named(let name): name
    case .array(let element): "[\(element.code)]"
    case .dictionary(let value): "[String: \(value.code)]"
    case .optional(let wrapped): "\(wrapped.code)?"
    }
  }

  /// The type without an outer optional.
  var unwrapped: SwiftType {
    if case .optional(let wrapped) = self { return wrapped }
    return self
  }

  var isOptional: Bool {
    if case .optional = self { return true }
    return false
  }
}

/// A type the generator declares inside an entity, presence or topic struct.
indirect enum NestedType: Hashable, Sendable {
  /// A string enum with an `unknown(String)` case for values added after generation.
  case enumeration(name: String, cases: [EnumCase], documentation: String?)
  /// A struct for an inline object type.
  case structure(name: String, fields: [FieldPlan], nested: [NestedType], documentation: String?)

  var name: String {
    switch self {
    case .enumeration(let name, _, _), .structure(let name, _, _, _): name
    }
  }
}

struct EnumCase: Hashable, Sendable {
  var name: String
  var rawValue: String
}

/// A stored property of a generated struct, mapped from an attribute or a type member.
struct FieldPlan: Hashable, Sendable {
  /// The Swift name, unescaped.
  var name: String
  /// The name in JSON and in the schema.
  var wireName: String
  /// The type without optionality.
  var type: SwiftType
  var isOptional: Bool
  var documentation: String?

  var declaredType: String { isOptional ? "\(type.code)?" : type.code }
  var escapedName: String { SwiftNaming.escaped(name) }
  var isDate: Bool { type == .date }
}
