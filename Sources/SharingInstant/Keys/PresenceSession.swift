import Foundation
import InstantDB

/// The room behind one presence key's reference: joined on subscribe, left on cancel, and the
/// user's presence published whenever `withLock` changes it.
///
/// Every mutable property is read and written under `lock`, which makes `@unchecked Sendable` sound.
final class PresenceSession<Presence: Codable & Sendable & Equatable>: @unchecked Sendable {
  let room: LazyRoom<Presence>
  private let lock = NSLock()
  private var lastPublished: Presence
  private var lastWrite: Task<Void, Never>?

  init(client: InstantClient, roomType: String, roomID: String, initialPresence: Presence) {
    room = LazyRoom(client: client, type: roomType, id: roomID, initialPresence: initialPresence)
    lastPublished = initialPresence
  }

  /// Each update from the room is delivered with `user` set to what this key published last:
  /// an update made before the latest `withLock` (peers moving, the room echoing an earlier
  /// presence) reaches the reference after it, and would otherwise put the user's older presence
  /// back over the newer one (with Point-Free's Sharing, which delivers off the main thread,
  /// this showed as a selection that jumped back).
  func subscribe(subscriber: SharedSubscriber<RoomPresence<Presence>>) -> SharedSubscription {
    let room = self.room
    let task = Task {
      do {
        for await update in try await room.room.presenceUpdates() {
          var presence = update
          presence.user = lock.withLock { lastPublished }
          subscriber.yield(presence)
        }
      } catch {
        subscriber.yield(throwing: error)
      }
    }
    return SharedSubscription {
      task.cancel()
      room.leave()
    }
  }

  /// Publishes `presence` when it differs from what was last published, after earlier publishes.
  func save(_ presence: Presence, continuation: SaveContinuation) {
    let room = self.room
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
          try await room.room.setPresence(presence)
          continuation.resume()
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }
}
