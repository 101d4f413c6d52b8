/// A link declared in the schema's `links` block, as generated in `Links.swift`.
///
/// Each side says, for the entities of `namespace`, under which `label` they see the other side
/// and how many of them they see. Pure metadata: it lets code name relations without strings.
public struct InstantLink: Sendable, Hashable {
  /// One direction of a link.
  public struct Side: Sendable, Hashable {
    /// The namespace whose entities carry `label`.
    public var namespace: String
    /// The relation's name on those entities.
    public var label: String
    /// How many entities of the other side each entity sees.
    public var has: Cardinality
    /// Deleting the entity on the other side also deletes this side's entity.
    public var cascadesOnDelete: Bool

    /// Creates a side.
    public init(namespace: String, label: String, has: Cardinality, cascadesOnDelete: Bool = false) {
      self.namespace = namespace
      self.label = label
      self.has = has
      self.cascadesOnDelete = cascadesOnDelete
    }
  }

  /// The link's key in the schema. InstantDB does not store it, so only local code uses it.
  public var name: String
  /// The forward side.
  public var forward: Side
  /// The reverse side.
  public var reverse: Side
  /// The forward entity must have this link (`required: true`).
  public var isRequired: Bool

  /// Creates a link description.
  public init(name: String, forward: Side, reverse: Side, isRequired: Bool = false) {
    self.name = name
    self.forward = forward
    self.reverse = reverse
    self.isRequired = isRequired
  }
}
