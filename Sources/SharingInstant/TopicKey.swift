/// A typed reference to a topic of a room type, generated as `Schema.Topics.<Room>.<topic>`
/// (for example `Schema.Topics.Chat.emoji`).
///
/// `Payload` is the shape of the events broadcast on the topic.
public struct TopicKey<Payload: Codable & Sendable & Equatable>: Sendable, Hashable {
  /// The room type the topic belongs to, for example `"chat"`.
  public let roomType: String
  /// The topic name, for example `"emoji"`.
  public let topic: String

  /// Creates a key for `topic` in rooms of type `roomType`.
  public init(roomType: String, topic: String) {
    self.roomType = roomType
    self.topic = topic
  }
}
