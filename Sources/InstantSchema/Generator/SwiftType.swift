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
    case .json: "JSON"
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
