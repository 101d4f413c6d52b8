/// One attribute of an entity, such as `title: i.string().indexed()`.
public struct AttributeDefinition: Sendable, Hashable {
  /// The value type as written: `i.any()` and `i.json()` are the same on the server but kept
  /// apart here.
  public enum ValueType: String, Sendable, Hashable, CaseIterable {
    case string, number, boolean, date, json, any
  }

  /// The attribute's name in the schema.
  public var name: String
  /// The builder it was declared with.
  public var valueType: ValueType
  /// `.optional()`: the value may be missing or `null`.
  public var isOptional: Bool
  /// `.unique()`.
  public var isUnique: Bool
  /// `.indexed()`.
  public var isIndexed: Bool
  /// `.clientRequired()`: required in client types but not enforced by the server.
  public var isClientRequired: Bool
  /// The type argument of `i.json<T>()` or `i.string<T>()`, resolved against local aliases.
  public var typeArgument: TypeExpression?
  /// The type argument's source text, for diagnostics.
  public var typeArgumentText: String?
  /// The documentation comment above the attribute.
  public var documentation: String?

  /// Creates an attribute.
  public init(
    name: String, valueType: ValueType, isOptional: Bool = false, isUnique: Bool = false, isIndexed: Bool = false,
    isClientRequired: Bool = false, typeArgument: TypeExpression? = nil, typeArgumentText: String? = nil,
    documentation: String? = nil
  ) {
    self.name = name
    self.valueType = valueType
    self.isOptional = isOptional
    self.isUnique = isUnique
    self.isIndexed = isIndexed
    self.isClientRequired = isClientRequired
    self.typeArgument = typeArgument
    self.typeArgumentText = typeArgumentText
    self.documentation = documentation
  }
}
