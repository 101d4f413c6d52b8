import InstantDB

/// The events peers publish on one topic of one room, newest last, as `@Shared(.instantTopic(…))`
/// holds them; `$channel.publish(payload)` sends one.
public struct TopicChannel<Payload: Codable & Sendable & Equatable>: Sendable, Equatable {
  /// Received events, oldest first, at most ``maxEvents``.
  public var events: [TopicEvent<Payload>] = []
  /// How many events are kept.
  public var maxEvents: Int
  /// Whether the room is joined and events are being received.
  public var isConnected = false
  /// Sends on this channel's topic; `nil` in a channel made by hand.
  let publisher: TopicPublisher<Payload>?

  public init(maxEvents: Int = 50) {
    self.maxEvents = maxEvents
    publisher = nil
  }

  init(maxEvents: Int, publisher: TopicPublisher<Payload>) {
    self.maxEvents = maxEvents
    self.publisher = publisher
  }

  /// The newest event.
  public var latestEvent: TopicEvent<Payload>? { events.last }

  /// Appends `event`, dropping the oldest beyond ``maxEvents``.
  public mutating func addEvent(_ event: TopicEvent<Payload>) {
    events.append(event)
    if events.count > maxEvents { events.removeFirst(events.count - maxEvents) }
  }

  public mutating func clearEvents() { events.removeAll() }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.events == rhs.events && lhs.maxEvents == rhs.maxEvents && lhs.isConnected == rhs.isConnected
  }
}

/// Publishes on one topic of one room.
final class TopicPublisher<Payload: Codable & Sendable & Equatable>: Sendable {
  let room: LazyRoom<JSON>
  let topic: String

  init(client: InstantClient, roomType: String, roomID: String, topic: String) {
    room = LazyRoom(client: client, type: roomType, id: roomID, initialPresence: [:])
    self.topic = topic
  }

  func publish(_ payload: Payload) async throws {
    try await room.room.publish(topic: topic, payload)
  }
}

/// Topic channels have no save of their own: `publish` sends, and published events are not stored.
public struct TopicNotConnected: Error, CustomStringConvertible {
  public var description: String { "this channel was not made by .instantTopic, so it cannot publish" }
}

extension Shared {
  /// Sends `payload` to every other peer in the channel's room. Your own events are not echoed.
  public func publish<Payload>(_ payload: Payload) async throws where Value == TopicChannel<Payload> {
    guard let publisher = wrappedValue.publisher else { throw TopicNotConnected() }
    try await publisher.publish(payload)
  }
}
