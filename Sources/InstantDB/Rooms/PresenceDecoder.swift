import InstantCore
import Logging

/// Turns a room's JSON presence into typed presence for one stream. A value is decoded again only
/// when its JSON changed, so a busy room costs one decode per change, not one per peer per
/// change. A peer whose presence does not decode is left out, reported as the room's error and
/// logged once (until it decodes again).
///
/// Peers keep the server's order (the order they joined), which is stable from one snapshot to
/// the next, so the cache is an array checked position by position.
struct PresenceDecoder<Presence: Codable & Sendable & Equatable> {
  struct Entry {
    var id: String
    var raw: JSON
    /// nil: does not decode (`problem` says why).
    var value: Presence?
    var problem: InstantClientError?
  }

  let fallbackUser: Presence
  let logger: Logger
  private var entries: [Entry] = []
  private var user: (raw: JSON, value: Presence)?

  init(fallbackUser: Presence, logger: Logger) {
    self.fallbackUser = fallbackUser
    self.logger = logger
  }

  mutating func decode(_ snapshot: RoomSnapshot) -> RoomPresence<Presence> {
    var error = snapshot.error
    let members = snapshot.members.objectValue ?? [:]
    var next: [Entry] = []
    next.reserveCapacity(members.count)
    var peers: [Peer<Presence>] = []
    peers.reserveCapacity(members.count)
    for (index, (id, member)) in members.enumerated() {
      let data = member["data"] ?? .null
      let entry: Entry
      if index < entries.count, entries[index].id == id, entries[index].raw == data {
        entry = entries[index]
      } else {
        entry = decodePeer(id, data, previous: index < entries.count && entries[index].id == id ? entries[index] : nil)
      }
      next.append(entry)
      if let value = entry.value {
        peers.append(Peer(id: id, userID: member["user"]?["id"]?.stringValue, data: value))
      } else {
        error = entry.problem
      }
    }
    entries = next
    return RoomPresence(
      user: decodeUser(snapshot.user), peerID: snapshot.peerID, peers: peers, isLoading: snapshot.isLoading,
      error: error)
  }

  private func decodePeer(_ id: String, _ data: JSON, previous: Entry?) -> Entry {
    do {
      return Entry(id: id, raw: data, value: try PresenceCoding.decode(data, as: Presence.self))
    } catch {
      let problem = InstantClientError(
        .presenceDecoding, "the presence of peer \(id) does not decode as \(Presence.self): \(error)")
      let wasFailing = previous != nil && previous?.value == nil
      if !wasFailing { logger.error("\(problem)") }
      return Entry(id: id, raw: data, value: nil, problem: problem)
    }
  }

  /// Your own presence was encoded from a `Presence` (or another handle's type, on a shared room).
  private mutating func decodeUser(_ raw: JSON) -> Presence {
    if let user, user.raw == raw { return user.value }
    let value = (try? PresenceCoding.decode(raw, as: Presence.self)) ?? fallbackUser
    user = (raw, value)
    return value
  }
}
