/// An `i.entity({…})`: a namespace's attributes, or the shape of a room's presence or topic.
public struct EntityDefinition: Sendable, Hashable {
  /// The key it was declared under, for example `todos`, `$users` or `journal-entries`.
  public var name: String
  /// The attributes, without the implicit `id`.
  public var attributes: [AttributeDefinition]
  /// The documentation comment above the declaration.
  public var documentation: String?

  /// Creates an entity.
  public init(name: String, attributes: [AttributeDefinition] = [], documentation: String? = nil) {
    self.name = name
    self.attributes = attributes
    self.documentation = documentation
  }
}
