import Dependencies
import Foundation
import InstantDB

/// The latest events of one topic in one room: `@Shared(.instantTopic(Schema.Topics.Chat.emoji,
/// roomId: "a"))`, and `try await $channel.publish(Emoji(emoji: "🔥"))` to send.
public struct InstantTopicKey<Payload: Codable & Sendable & Equatable>: SharedKey {
  public typealias Value = TopicChannel<Payload>

  let publisher: TopicPublisher<Payload>
  let channel: Channel
  public let id: InstantKeyID

  /// The channel this key last yielded or was given; events are added to it.
  /// Read and written under `lock` only, which makes `@unchecked Sendable` sound.
  final class Channel: @unchecked Sendable {
    let lock = NSLock()
    var value: TopicChannel<Payload>
    init(_ value: TopicChannel<Payload>) { self.value = value }
  }

  init(roomType: String, topic: String, roomID: String, maxEvents: Int, client: InstantClient?) {
    @Dependency(\.defaultInstant) var defaultInstant
    let client = client ?? defaultInstant
    publisher = TopicPublisher(client: client, roomType: roomType, roomID: roomID, topic: topic)
    channel = Channel(TopicChannel(maxEvents: maxEvents, publisher: publisher))
    id = InstantKeyID(client: client, query: [roomType: .string(roomID), "topic": .string(topic)], kind: "topic")
  }

  public var initialValue: Value { channel.lock.withLock { channel.value } }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    continuation.resume(returning: initialValue)
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    let (publisher, channel) = (publisher, channel)
    let task = Task {
      do {
        let events = try await publisher.room.room.events(topic: publisher.topic, as: Payload.self)
        subscriber.yield(channel.lock.withLock { channel.value.isConnected = true; return channel.value })
        for await event in events {
          subscriber.yield(channel.lock.withLock { channel.value.addEvent(event); return channel.value })
        }
      } catch {
        subscriber.yield(throwing: error)
      }
    }
    return SharedSubscription {
      task.cancel()
      publisher.room.leave()
    }
  }

  /// Keeps the user's edits (say, `clearEvents()`); nothing is sent.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    channel.lock.withLock { channel.value.events = value.events }
    continuation.resume()
  }
}

extension SharedReaderKey {
  /// The latest events of a generated topic in the room `roomId`.
  public static func instantTopic<Payload>(
    _ topic: TopicKey<Payload>, roomId: String, maxEvents: Int = 50, client: InstantClient? = nil
  ) -> Self where Self == InstantTopicKey<Payload>.Default {
    instantTopic(roomType: topic.roomType, topic: topic.topic, roomId: roomId, maxEvents: maxEvents, client: client)
  }

  /// The latest events of `topic` in the room `roomId` of type `roomType`, without generated code.
  public static func instantTopic<Payload>(
    roomType: String, topic: String, roomId: String, maxEvents: Int = 50, client: InstantClient? = nil
  ) -> Self where Self == InstantTopicKey<Payload>.Default {
    let key = InstantTopicKey<Payload>(roomType: roomType, topic: topic, roomID: roomId, maxEvents: maxEvents, client: client)
    return Self[key, default: key.initialValue]
  }
}
