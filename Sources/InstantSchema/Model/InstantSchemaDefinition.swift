/// A schema read from `instant.schema.ts` (or pulled from a server): the generator's input.
///
/// Everything keeps the order of the source so that generated code is stable.
public struct InstantSchemaDefinition: Sendable, Hashable {
  /// The namespaces, including system ones such as `$users` when the schema declares them.
  public var entities: [EntityDefinition]
  /// The links between namespaces.
  public var links: [LinkDefinition]
  /// The room types, with their presence and topics.
  public var rooms: [RoomDefinition]

  /// Creates a schema.
  public init(entities: [EntityDefinition] = [], links: [LinkDefinition] = [], rooms: [RoomDefinition] = []) {
    self.entities = entities
    self.links = links
    self.rooms = rooms
  }

  /// The entity named `name`, if the schema declares it.
  public func entity(named name: String) -> EntityDefinition? {
    entities.first { $0.name == name }
  }
}
