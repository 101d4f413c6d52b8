/// A typed reference to a room type, generated as `Schema.Rooms.<room>`.
///
/// `Presence` is the shape every peer publishes in rooms of this type.
public struct RoomKey<Presence: Codable & Sendable & Equatable>: Sendable, Hashable {
  /// The room type as written in the schema's `rooms` block, for example `"chat"`.
  public let type: String

  /// Creates a key for the room type `type`.
  public init(type: String) {
    self.type = type
  }
}
