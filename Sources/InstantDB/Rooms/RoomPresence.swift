import InstantCore

/// Who is in a room: your own presence, every other peer's, and whether you are in it yet.
///
/// `Presence` is the shape every peer publishes in rooms of this type (`JSON` when untyped).
public struct RoomPresence<Presence: Sendable & Equatable>: Sendable, Equatable {
  /// Your own presence, as last set on this device.
  public var user: Presence
  /// Your own peer id (the socket's session id), once connected.
  public var peerID: String?
  /// Every other peer in the room, in the order the server lists them (the order they joined);
  /// your own session is never among them.
  public var peers: [Peer<Presence>]
  /// True until the server has confirmed the join on the current socket.
  public var isLoading: Bool
  /// The last problem with this room: the server refused an operation, or (typed rooms) a peer's
  /// presence does not decode as `Presence` (that peer is left out of ``peers``).
  public var error: InstantClientError?

  public init(
    user: Presence, peerID: String? = nil, peers: [Peer<Presence>] = [], isLoading: Bool = true,
    error: InstantClientError? = nil
  ) {
    self.user = user
    self.peerID = peerID
    self.peers = peers
    self.isLoading = isLoading
    self.error = error
  }

  /// You and your peers.
  public var totalCount: Int { peers.count + 1 }
  /// Whether anyone else is in the room.
  public var hasPeers: Bool { !peers.isEmpty }

  /// The peer with id `peerID`, if it is in the room.
  public subscript(peer peerID: String) -> Peer<Presence>? { peers.first { $0.id == peerID } }
}

/// Another session in a room, with its presence.
public struct Peer<Presence: Sendable & Equatable>: Sendable, Equatable, Identifiable {
  /// The peer's session id; stable for the life of its socket.
  public var id: String
  /// The signed-in user behind the peer, if any.
  public var userID: String?
  public var data: Presence

  public init(id: String, userID: String? = nil, data: Presence) {
    self.id = id
    self.userID = userID
    self.data = data
  }
}

/// An event broadcast on a room's topic by another peer.
public struct TopicEvent<Payload: Sendable & Equatable>: Sendable, Equatable {
  public var topic: String
  /// The sender's peer id (session id).
  public var peerID: String
  /// The signed-in user who sent it, if any.
  public var userID: String?
  public var data: Payload

  public init(topic: String, peerID: String, userID: String? = nil, data: Payload) {
    self.topic = topic
    self.peerID = peerID
    self.userID = userID
    self.data = data
  }
}
