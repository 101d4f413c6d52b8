import InstantCore
import Logging

/// Turns a room's JSON presence into typed presence for one stream. A peer's value is decoded
/// again only when its JSON changed, so a busy room costs one decode per change, not one per peer
/// per change. A peer whose presence does not decode is left out, reported as the room's error
/// and logged once (until it decodes again).
struct PresenceDecoder<Presence: Codable & Sendable & Equatable> {
  let fallbackUser: Presence
  let logger: Logger
  private var decoded: [String: (raw: JSON, value: Result<Presence, InstantClientError>)] = [:]

  init(fallbackUser: Presence, logger: Logger) {
    self.fallbackUser = fallbackUser
    self.logger = logger
  }

  mutating func decode(_ raw: RoomPresence<JSON>) -> RoomPresence<Presence> {
    var error = raw.error
    var peers: [Peer<Presence>] = []
    peers.reserveCapacity(raw.peers.count)
    var seen: [String: (raw: JSON, value: Result<Presence, InstantClientError>)] = [:]
    for peer in raw.peers {
      let value: Result<Presence, InstantClientError>
      if let cached = decoded[peer.id], cached.raw == peer.data {
        value = cached.value
      } else {
        value = Result { try PresenceCoding.decode(peer.data, as: Presence.self) }.mapError { decoding in
          InstantClientError(.presenceDecoding, "the presence of peer \(peer.id) does not decode as \(Presence.self): \(decoding)")
        }
        var wasFailing = false
        if case .failure = decoded[peer.id]?.value { wasFailing = true }
        if case let .failure(problem) = value, !wasFailing { logger.error("\(problem)") }
      }
      seen[peer.id] = (peer.data, value)
      switch value {
      case let .success(data): peers.append(Peer(id: peer.id, userID: peer.userID, data: data))
      case let .failure(problem): error = problem
      }
    }
    decoded = seen
    let user = (try? PresenceCoding.decode(raw.user, as: Presence.self)) ?? fallbackUser
    return RoomPresence(user: user, peerID: raw.peerID, peers: peers, isLoading: raw.isLoading, error: error)
  }
}
