/// Maps attribute types and TypeScript type arguments to Swift types, declaring the enums and
/// structs they need inside the owning struct.
struct SwiftTypeMapper {
  /// Names no nested type may take: top-level generated types and reserved Swift names.
  let forbiddenNames: Set<String>
  var warnings: [Diagnostic] = []

  /// The nested types of one struct being generated.
  struct Scope {
    var names: NameScope
    var declarations: [NestedType] = []
    var aliasNames: [String: String] = [:]
  }

  func makeScope(enclosingTypeName: String) -> Scope {
    Scope(names: NameScope(reserved: ["CodingKeys", enclosingTypeName]))
  }

  /// The fields of an entity, presence or topic shape.
  mutating func fields(
    for attributes: [AttributeDefinition], names: inout NameScope, scope: inout Scope, path: String
  ) -> [FieldPlan] {
    attributes.map { attribute in
      let wanted = SwiftNaming.memberName(attribute.name)
      let name = names.claim(wanted)
      let attributePath = "\(path).\(attribute.name)"
      if name != wanted {
        warnings.append(.warning("`\(attribute.name)` is generated as `\(name)` to avoid a name clash", schemaPath: attributePath))
      }
      var (type, optional) = mapAttribute(attribute, fieldName: name, scope: &scope, path: attributePath)
      if attribute.isOptional && !attribute.isClientRequired { optional = true }
      return FieldPlan(name: name, wireName: attribute.name, type: type, isOptional: optional, documentation: attribute.documentation)
    }
  }

  private mutating func mapAttribute(
    _ attribute: AttributeDefinition, fieldName: String, scope: inout Scope, path: String
  ) -> (SwiftType, Bool) {
    switch attribute.valueType {
    case .number: return (.double, false)
    case .boolean: return (.bool, false)
    case .date: return (.date, false)
    case .string:
      guard let argument = attribute.typeArgument else { return (.string, false) }
      if let literals = argument.stringLiterals {
        return (declareEnum(literals, suggested: enumName(for: argument, fieldName: fieldName), scope: &scope), false)
      }
      if argument.resolvingAliases != .string {
        warnings.append(.warning("`i.string<\(attribute.typeArgumentText ?? "")>()` is not a string-literal union; using String", schemaPath: path))
      }
      return (.string, false)
    case .json, .any:
      guard let argument = attribute.typeArgument else { return (.json, false) }
      let type = map(argument, suggested: SwiftNaming.upperCamel(fieldName), scope: &scope, path: path)
      return (type.unwrapped, type.isOptional)
    }
  }

  private func enumName(for type: TypeExpression, fieldName: String) -> String {
    if case .alias(let name, _) = type { return SwiftNaming.upperCamel(name) }
    return SwiftNaming.upperCamel(fieldName)
  }

  private mutating func claimTypeName(_ suggested: String, scope: inout Scope) -> String {
    var name = suggested
    if forbiddenNames.contains(name) || SwiftNaming.reservedTypeNames.contains(name) || SwiftNaming.keywords.contains(name) {
      name += "Value"
    }
    return scope.names.claim(name)
  }

  private mutating func declareEnum(_ literals: [String], suggested: String, scope: inout Scope) -> SwiftType {
    var unique: [String] = []
    for literal in literals where !unique.contains(literal) { unique.append(literal) }
    let aliasKey = "enum:" + unique.joined(separator: "\u{1}")
    if let existing = scope.aliasNames[aliasKey] { return .named(existing) }
    let name = claimTypeName(suggested, scope: &scope)
    var caseNames = NameScope(reserved: ["unknown", "rawValue", "allCases", "instantValue", "hashValue", "init", "self"])
    let cases = unique.map { literal -> EnumCase in
      var base = literal.isEmpty ? "empty" : SwiftNaming.memberName(literal)
      if ["unknown", "rawValue", "allCases", "instantValue", "hashValue", "init", "self"].contains(base) { base += "Value" }
      return EnumCase(name: caseNames.claim(base), rawValue: literal)
    }
    scope.declarations.append(.enumeration(name: name, cases: cases, documentation: nil))
    scope.aliasNames[aliasKey] = name
    return .named(name)
  }

  /// Maps a type argument; the result may be optional when the type includes `null`.
  private mutating func map(_ type: TypeExpression, suggested: String, scope: inout Scope, path: String) -> SwiftType {
    switch type {
    case .string, .stringLiteral: return .string
    case .number, .numberLiteral: return .double
    case .boolean, .booleanLiteral: return .bool
    case .any: return .json
    case .null:
      warnings.append(.warning("a type argument of only `null` maps to JSON", schemaPath: path))
      return .json
    case .array(let element):
      let singular = SwiftNaming.singular(suggested)
      return .array(map(element, suggested: singular == suggested ? suggested + "Item" : singular, scope: &scope, path: path))
    case .record(let value):
      return .dictionary(map(value, suggested: suggested + "Value", scope: &scope, path: path))
    case .object(let members):
      return declareStruct(members, suggested: suggested, documentation: nil, scope: &scope, path: path)
    case .alias(let name, let resolved):
      if let literals = resolved.stringLiterals, !literals.isEmpty, resolved.resolvingAliases != .string {
        return declareEnum(literals, suggested: SwiftNaming.upperCamel(name), scope: &scope)
      }
      if case .object(let members) = resolved.resolvingAliases {
        if let existing = scope.aliasNames["alias:" + name] { return .named(existing) }
        let declared = declareStruct(members, suggested: SwiftNaming.upperCamel(name), documentation: nil, scope: &scope, path: path)
        if case .named(let declaredName) = declared { scope.aliasNames["alias:" + name] = declaredName }
        return declared
      }
      return map(resolved, suggested: SwiftNaming.upperCamel(name), scope: &scope, path: path)
    case .union(let members):
      let nonNull = members.filter { $0 != .null }
      let hasNull = nonNull.count != members.count
      var result: SwiftType
      if nonNull.isEmpty {
        result = .json
      } else if let literals = TypeExpression.union(nonNull).stringLiterals {
        result = declareEnum(literals, suggested: suggested, scope: &scope)
      } else if nonNull.count == 1 {
        result = map(nonNull[0], suggested: suggested, scope: &scope, path: path).unwrapped
      } else if nonNull.allSatisfy({ $0.kindKey == .number }) {
        result = .double
      } else if nonNull.allSatisfy({ $0.kindKey == .boolean }) {
        result = .bool
      } else {
        warnings.append(.warning("the union type in this type argument has no single Swift type; using JSON", schemaPath: path))
        result = .json
      }
      return hasNull ? .optional(result) : result
    case .opaque(let description):
      warnings.append(.warning("\(description) cannot be mapped to Swift; using JSON", schemaPath: path))
      return .json
    }
  }

  private mutating func declareStruct(
    _ members: [TypeMember], suggested: String, documentation: String?, scope: inout Scope, path: String
  ) -> SwiftType {
    let name = claimTypeName(suggested, scope: &scope)
    var inner = makeScope(enclosingTypeName: name)
    var fieldNames = NameScope(reserved: ["instantValue"])
    let fields = members.map { member -> FieldPlan in
      let fieldName = fieldNames.claim(SwiftNaming.memberName(member.name))
      let type = map(member.type, suggested: SwiftNaming.upperCamel(fieldName), scope: &inner, path: "\(path).\(member.name)")
      return FieldPlan(
        name: fieldName, wireName: member.name, type: type.unwrapped, isOptional: member.isOptional || type.isOptional,
        documentation: member.documentation)
    }
    scope.declarations.append(.structure(name: name, fields: fields, nested: inner.declarations, documentation: documentation))
    return .named(name)
  }
}

extension TypeExpression {
  /// The type with outer aliases removed.
  var resolvingAliases: TypeExpression {
    if case .alias(_, let type) = self { return type.resolvingAliases }
    return self
  }

  /// A representative of the type's kind, to compare kinds of literals.
  var kindKey: TypeExpression {
    switch resolvingAliases {
    case .number, .numberLiteral: .number
    case .boolean, .booleanLiteral: .boolean
    case let other: other
    }
  }
}
