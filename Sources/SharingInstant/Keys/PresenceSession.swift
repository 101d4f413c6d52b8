import Foundation
import InstantDB

/// The room behind one presence key's reference: joined on subscribe, left on cancel, and the
/// user's presence published whenever `withLock` changes it.
///
/// Every mutable property is read and written under `lock`, which makes `@unchecked Sendable` sound.
final class PresenceSession<Presence: Codable & Sendable & Equatable>: @unchecked Sendable {
  let client: InstantClient
  let roomType: String
  let roomID: String
  let initialPresence: Presence
  private let lock = NSLock()
  private var room: Task<InstantRoom<Presence>, any Error>?
  private var lastPublished: Presence
  private var lastWrite: Task<Void, Never>?

  init(client: InstantClient, roomType: String, roomID: String, initialPresence: Presence) {
    self.client = client
    self.roomType = roomType
    self.roomID = roomID
    self.initialPresence = initialPresence
    lastPublished = initialPresence
  }

  /// The joined room, joining it on first use.
  private func joined() -> Task<InstantRoom<Presence>, any Error> {
    lock.withLock {
      if let room { return room }
      let task = Task { [client, roomType, roomID, initialPresence] in
        try await client.joinRoom(type: roomType, id: roomID, initialPresence: initialPresence)
      }
      room = task
      return task
    }
  }

  func subscribe(subscriber: SharedSubscriber<RoomPresence<Presence>>) -> SharedSubscription {
    let room = joined()
    let task = Task {
      do {
        for await presence in try await room.value.presenceUpdates() { subscriber.yield(presence) }
      } catch {
        subscriber.yield(throwing: error)
      }
    }
    return SharedSubscription {
      task.cancel()
      Task { try? await room.value.leave() }
    }
  }

  /// Publishes `presence` when it differs from what was last published, after earlier publishes.
  func save(_ presence: Presence, continuation: SaveContinuation) {
    let room = joined()
    lock.withLock {
      guard presence != lastPublished else {
        let previous = lastWrite
        Task {
          await previous?.value
          continuation.resume()
        }
        return
      }
      lastPublished = presence
      let previous = lastWrite
      lastWrite = Task {
        await previous?.value
        do {
          try await room.value.setPresence(presence)
          continuation.resume()
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }
}
