import InstantCore
import Logging
import OrderedCollections

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
    var userID: String?
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
    var peers: [Peer<Presence>] = []
    peers.reserveCapacity(members.count)
    // The cache is updated in place: a busy room changes one peer per snapshot, and copying
    // every entry for it would cost more than the decode it saves.
    var index = 0
    for (id, member) in members {
      let data = member["data"] ?? .null
      if index < entries.count, entries[index].id == id {
        if entries[index].raw != data {
          entries[index] = decodePeer(id, member, data, previous: entries[index])
        }
      } else {
        let entry = decodePeer(id, member, data, previous: nil)
        if index < entries.count { entries[index] = entry } else { entries.append(entry) }
      }
      if let value = entries[index].value {
        peers.append(Peer(id: id, userID: entries[index].userID, data: value))
      } else {
        error = entries[index].problem
      }
      index += 1
    }
    if entries.count > index { entries.removeLast(entries.count - index) }
    return RoomPresence(
      user: decodeUser(snapshot.user), peerID: snapshot.peerID, peers: peers, isLoading: snapshot.isLoading,
      error: error)
  }

  private func decodePeer(_ id: String, _ member: JSON, _ data: JSON, previous: Entry?) -> Entry {
    let userID = member["user"]?["id"]?.stringValue
    do {
      return Entry(id: id, raw: data, userID: userID, value: try PresenceCoding.decode(data, as: Presence.self))
    } catch {
      let problem = InstantClientError(
        .presenceDecoding, "the presence of peer \(id) does not decode as \(Presence.self): \(error)", underlying: error)
      let wasFailing = previous != nil && previous?.value == nil
      if !wasFailing { logger.error("\(problem)") }
      return Entry(id: id, raw: data, userID: userID, value: nil, problem: problem)
    }
  }

  /// Your own presence was encoded from a `Presence` (or another handle's type, on a shared room).
  /// One that does not decode as `Presence` shows as `fallbackUser` here (logged once per value);
  /// what peers see, and what this device keeps and re-sends, is the presence as it was set.
  private mutating func decodeUser(_ raw: JSON) -> Presence {
    if let user, user.raw == raw { return user.value }
    let value: Presence
    do {
      value = try PresenceCoding.decode(raw, as: Presence.self)
    } catch {
      // `{}` or null is no presence set yet (a room joined first by a topic handle): nothing to report.
      if !Rooms.isEmptyPresence(raw) {
        logger.error("your own presence does not decode as \(Presence.self), so this handle shows its default instead: \(error)")
      }
      value = fallbackUser
    }
    user = (raw, value)
    return value
  }
}
