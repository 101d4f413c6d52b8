import Foundation
import InstantDB

/// A room joined on first use, not when a key is made: keys are made on every evaluation of
/// `.instantPresence(…)` or `.instantTopic(…)`, and only the first one with an id is used.
///
/// `joined` is read and written under `lock` only, which makes `@unchecked Sendable` sound.
final class LazyRoom<Presence: Codable & Sendable & Equatable>: @unchecked Sendable {
  let client: InstantClient
  let type: String
  let id: String
  let initialPresence: Presence
  private let lock = NSLock()
  private var joined: Task<InstantRoom<Presence>, any Error>?

  init(client: InstantClient, type: String, id: String, initialPresence: Presence) {
    self.client = client
    self.type = type
    self.id = id
    self.initialPresence = initialPresence
  }

  /// The room's handle, joining it the first time.
  var room: InstantRoom<Presence> {
    get async throws {
      let task = lock.withLock {
        if let joined { return joined }
        let task = Task { [client, type, id, initialPresence] in
          try await client.joinRoom(type: type, id: id, initialPresence: initialPresence)
        }
        joined = task
        return task
      }
      return try await task.value
    }
  }

  /// Leaves the room if it was joined; the next use joins it again.
  func leave() {
    let joined: Task<InstantRoom<Presence>, any Error>? = lock.withLock {
      defer { self.joined = nil }
      return self.joined
    }
    guard let joined else { return }
    // A join that failed left no room to leave (its error was reported to the key that joined),
    // so nothing is lost when it throws here.
    Task { try? await joined.value.leave() }
  }
}
