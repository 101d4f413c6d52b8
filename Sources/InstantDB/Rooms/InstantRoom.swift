import Foundation
public import InstantCore
import Logging
import OrderedCollections

/// Your place in a room: publish your presence, watch everyone's, broadcast and receive topic
/// events. From ``InstantClient/joinRoom(type:id:initialPresence:)->InstantRoom<Presence>``.
///
/// The room is joined while at least one handle for its id is alive (or one of its streams is
/// being read) and left when the last one calls ``leave()`` or goes away. After a reconnect the
/// client joins again with your current presence.
///
/// `Presence` is the shape every peer publishes: a `Codable` struct for typed rooms, `JSON`
/// otherwise. A peer whose presence does not decode as `Presence` is left out of
/// ``RoomPresence/peers``, logged, and reported as ``RoomPresence/error`` — never a crash.
public final class InstantRoom<Presence: Codable & Sendable & Equatable>: Sendable {
  /// The room type (`rooms` in the schema); the server does not use it, rooms are told apart by id.
  public let type: String
  public let id: String
  let reactor: Reactor
  let handle = UUID()
  let initialPresence: Presence
  let logger: Logger

  init(type: String, id: String, initialPresence: Presence, reactor: Reactor, logger: Logger) {
    self.type = type
    self.id = id
    self.initialPresence = initialPresence
    self.reactor = reactor
    self.logger = logger
  }

  deinit {
    let (reactor, id, handle) = (self.reactor, self.id, self.handle)
    Task { await reactor.releaseRoom(id, handle: handle) }
  }

  /// Gives up this handle now. If it was the last one for the room, the room is left and every
  /// stream on it ends; otherwise the other handles keep it joined.
  public func leave() async {
    await reactor.releaseRoom(id, handle: handle)
  }

  /// Replaces your presence (the whole value) and tells every peer. Before the join is confirmed
  /// it is kept and sent then. Throws only if `presence` does not encode.
  public func setPresence(_ presence: Presence) async throws {
    await reactor.setPresence(id, try PresenceCoding.encode(presence))
  }

  /// Changes your presence in place (reading the current one first).
  public func updatePresence(_ change: (inout Presence) -> Void) async throws {
    var presence = await self.presence.user
    change(&presence)
    try await setPresence(presence)
  }

  /// The room now.
  public var presence: RoomPresence<Presence> {
    get async {
      let raw = await reactor.roomPresence(id)
        ?? RoomSnapshot(user: .object([:]), members: .object([:]), isLoading: true)
      var decoder = PresenceDecoder(fallbackUser: initialPresence, logger: logger)
      return decoder.decode(raw)
    }
  }

  /// The room now and after every change (a peer joins, leaves or changes its presence; the join
  /// is confirmed or lost with the socket).
  public func presenceUpdates() -> AsyncStream<RoomPresence<Presence>> {
    let (reactor, id, watcher) = (self.reactor, self.id, UUID())
    return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
      let raw = AsyncStream<RoomSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
      continuation.onTermination = { _ in
        raw.continuation.finish()
        Task { await reactor.unwatchRoom(id, watcher) }
      }
      // This task holds the handle, and so the room, while someone reads the stream.
      Task {
        await reactor.watchPresence(id, watcher, raw.continuation)
        var decoder = PresenceDecoder(fallbackUser: self.initialPresence, logger: self.logger)
        for await snapshot in raw.stream {
          continuation.yield(decoder.decode(snapshot))
        }
        continuation.finish()
      }
    }
  }

  /// Sends `payload` to every other peer in the room on `topic`. Published before the join is
  /// confirmed, it is queued and sent then, in order.
  public func publish<Payload: Encodable>(topic: String, _ payload: Payload) async throws {
    await reactor.publish(id, topic: topic, data: try PresenceCoding.encode(payload))
  }

  /// Events other peers publish on `topic` from now on. An event whose data does not decode as
  /// `Payload` is logged and skipped.
  public func events<Payload: Decodable & Sendable & Equatable>(
    topic: String, as type: Payload.Type = JSON.self
  ) -> AsyncStream<TopicEvent<Payload>> {
    let (reactor, id, watcher, logger) = (self.reactor, self.id, UUID(), self.logger)
    return AsyncStream(bufferingPolicy: .bufferingNewest(256)) { continuation in
      let raw = AsyncStream<TopicEvent<JSON>>.makeStream(bufferingPolicy: .bufferingNewest(256))
      continuation.onTermination = { _ in
        raw.continuation.finish()
        Task { await reactor.unwatchRoom(id, watcher) }
      }
      Task {
        _ = self  // holds the room while someone reads the stream
        await reactor.watchTopic(id, topic: topic, watcher, raw.continuation)
        for await event in raw.stream {
          do {
            let data = try PresenceCoding.decode(event.data, as: Payload.self)
            continuation.yield(TopicEvent(topic: event.topic, peerID: event.peerID, userID: event.userID, data: data))
          } catch {
            logger.error("skipped a \(topic) event in room \(id) that does not decode as \(Payload.self): \(error)")
          }
        }
        continuation.finish()
      }
    }
  }
}
