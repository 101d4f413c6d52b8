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
