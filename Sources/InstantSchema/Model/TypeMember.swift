/// A member of an inline object type, such as `label?: string`.
public struct TypeMember: Sendable, Hashable {
  /// The member's name as written.
  public var name: String
  /// `name?:`.
  public var isOptional: Bool
  /// The member's type.
  public var type: TypeExpression
  /// The comment above the member.
  public var documentation: String?

  /// Creates a member.
  public init(name: String, isOptional: Bool, type: TypeExpression, documentation: String? = nil) {
    self.name = name
    self.isOptional = isOptional
    self.type = type
    self.documentation = documentation
  }
}
