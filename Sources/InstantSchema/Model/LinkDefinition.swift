public import InstantCore

/// An entry of the schema's `links` block.
public struct LinkDefinition: Sendable, Hashable {

  /// One side of a link: on the entities of `namespace`, `label` refers to `has` entities of
  /// the other side.
  public struct Side: Sendable, Hashable {
    /// The `on` entity name.
    public var namespace: String
    /// `has: 'one'` or `has: 'many'`: InstantCore's type, the one generated code and the client use.
    public var has: Cardinality
    /// The relation's name on `namespace`.
    public var label: String
    /// `required: true` (meaningful on the forward side only).
    public var isRequired: Bool
    /// `onDelete: 'cascade'`: deleting the other side's entity deletes this side's entity.
    public var cascadesOnDelete: Bool

    /// Creates a side.
    public init(namespace: String, has: Cardinality, label: String, isRequired: Bool = false, cascadesOnDelete: Bool = false) {
      self.namespace = namespace
      self.has = has
      self.label = label
      self.isRequired = isRequired
      self.cascadesOnDelete = cascadesOnDelete
    }
  }

  /// The link's key in `links`. The server does not store it.
  public var name: String
  /// The side whose `required` and forward `onDelete` count.
  public var forward: Side
  /// The other side.
  public var reverse: Side
  /// The documentation comment above the link.
  public var documentation: String?

  /// Creates a link.
  public init(name: String, forward: Side, reverse: Side, documentation: String? = nil) {
    self.name = name
    self.forward = forward
    self.reverse = reverse
    self.documentation = documentation
  }
}
