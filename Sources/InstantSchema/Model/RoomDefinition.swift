/// An entry of the schema's `rooms` block.
public struct RoomDefinition: Sendable, Hashable {
  /// The room type, for example `chat`.
  public var name: String
  /// The shape each peer publishes; named after the room.
  public var presence: EntityDefinition
  /// The topics and their payload shapes.
  public var topics: [EntityDefinition]
  /// The documentation comment above the room.
  public var documentation: String?

  /// Creates a room.
  public init(name: String, presence: EntityDefinition, topics: [EntityDefinition] = [], documentation: String? = nil) {
    self.name = name
    self.presence = presence
    self.topics = topics
    self.documentation = documentation
  }
}
