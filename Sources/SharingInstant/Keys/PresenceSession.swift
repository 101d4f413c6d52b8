import Foundation
import InstantDB

/// The room behind one presence key's reference: joined on subscribe, left on cancel, and the
/// user's presence published whenever `withLock` changes it.
///
/// **The room never puts the user's presence back.** An update from the room (peers moving, the
/// room echoing an earlier presence) carries the peers, never the user: once the key holds its
/// reference (``OwnReference``), it changes the peers under the reference's own lock and leaves
/// `user` as the reference holds it — with any edit whose closure ran and whose `save` has not
/// come yet. Before, an update that came between the two put the previously published presence
/// back over the edit, and the next edit started from it: three steps right and one down showed as
/// two right and one down on every screen (`PresenceInterleavingTests`). Until the key holds its
/// reference, an update goes in with `user` set to what the key published last.
///
/// Every mutable property is read and written under `lock`, which makes `@unchecked Sendable`
/// sound. The lock is taken before the reference's, never after it.
package final class PresenceSession<Presence: Codable & Sendable & Equatable>: @unchecked Sendable {
  typealias Value = RoomPresence<Presence>

  let room: LazyRoom<Presence>
  private let lock = NSRecursiveLock()
  private let own: OwnReference<PresenceSession, Value>
  private var lastPublished: Presence
  private var lastWrite: Task<Void, Never>?
  private var _hooks = PresenceSessionHooks<Presence>()

  /// `readBack` makes the `@Shared` over this key again (see ``OwnReference``).
  init(
    client: InstantClient, roomType: String, roomID: String, initialPresence: Presence,
    readBack: (@Sendable (PresenceSession) -> Shared<Value>)?
  ) {
    room = LazyRoom(client: client, type: roomType, id: roomID, initialPresence: initialPresence)
    lastPublished = initialPresence
    own = OwnReference(lock: lock, readBack: readBack)
    own.attach(self)
  }

  /// Test seams (see ``PresenceSessionHooks``).
  package var hooks: PresenceSessionHooks<Presence> {
    get { lock.withLock { _hooks } }
    set { lock.withLock { _hooks = newValue } }
  }

  /// Whether the key holds its reference.
  package var holdsReference: Bool { own.held != nil }

  func load(continuation: LoadContinuation<Value>) {
    if !ReferenceReadBack.isMakingStray { own.captureDependencies() }
    continuation.resumeReturningInitialValue()
  }

  func subscribe(subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    if ReferenceReadBack.isMakingStray { return SharedSubscription {} }
    own.captureDependencies()
    let room = self.room
    let task = Task {
      do {
        for await update in try await room.room.presenceUpdates() {
          own.adopt()
          give(update, to: subscriber)
        }
      } catch {
        subscriber.yield(throwing: error)
      }
    }
    own.markSubscribed()
    return SharedSubscription {
      task.cancel()
      room.leave()
    }
  }

  /// Puts the room's `update` in: under the reference's lock, leaving the user's presence as it is
  /// there, once the key holds it; else with the presence published last.
  private func give(_ update: Value, to subscriber: SharedSubscriber<Value>) {
    lock.withLock {
      if !_hooks.plain, let reference = own.held {
        let alive = reference.withLock { current in
          current.peerID = update.peerID
          current.peers = update.peers
          current.isLoading = update.isLoading
          current.error = update.error
        }
        if alive { return _hooks.didGive?(update) ?? () }
        own.release()
      }
      var presence = update
      presence.user = lastPublished
      subscriber.yield(presence)
      _hooks.didGive?(update)
    }
  }

  /// Publishes `presence` when it differs from what was last published, after earlier publishes.
  func save(_ presence: Presence, continuation: SaveContinuation) {
    // The key's question to a reference it found: nothing was edited.
    if own.saveIsProbe() { return continuation.resume() }
    hooks.willSave?(presence)
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

/// Seams for tests that force an update from the room between a `withLock` edit and its `save`.
/// Unset in apps.
package struct PresenceSessionHooks<Presence: Sendable & Equatable>: Sendable {
  /// `withLock` called the key's `save` with this presence, before the key publishes it.
  package var willSave: (@Sendable (Presence) -> Void)?
  /// This update from the room went into the `@Shared`.
  package var didGive: (@Sendable (RoomPresence<Presence>) -> Void)?
  /// The deliberately broken key, for tests to show their checks can fail: every update goes in
  /// plainly, with the presence published last, as before the key held its reference.
  package var plain = false

  package init() {}
}
