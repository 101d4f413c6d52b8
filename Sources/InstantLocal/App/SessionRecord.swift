import InstantCore
import OrderedCollections

/// What an app keeps about one connected session (docs/protocol.md, "Sessions").
struct SessionRecord: Sendable {
  /// One subscribed query: the `q` as the client sent it (echoed in `refresh-ok`) and the
  /// serialized result last sent, to skip unchanged results.
  struct Subscription: Sendable {
    var q: JSON
    var qText: String
    /// `nil` once the query failed during a refresh and the session got an `error` for it; its
    /// next result is then always sent.
    var lastResult: String?
  }

  let id: String
  let sink: SessionSink
  let features: SessionFeatures
  /// The signed-in user's id, or nil.
  let userID: String?
  /// Where the socket comes from, for rules (`request.ip`, `request.origin`).
  let peer: SessionPeer
  /// Subscribed queries by canonical (sorted-key) `q`.
  var queries: OrderedDictionary<String, Subscription> = [:]
  /// The app's attrs version last sent to this session.
  var attrsVersionSent: Int
  /// Rooms this session is a member of.
  var rooms: Set<String> = []

  /// What a session's results depend on under rules: its user and where it connects from.
  var askerKey: String { (userID ?? "") + "\u{0}" + peer.ip + "\u{0}" + peer.origin }

  /// The presence/broadcast `user` field: `{id}` or null.
  var userRef: JSON { userID.map { ["id": .string($0)] } ?? .null }
}

/// The other end of a session's socket, as rules see it: `request.ip` (the peer's address) and
/// `request.origin` (the upgrade request's `Origin` header), empty when unknown.
struct SessionPeer: Sendable, Hashable {
  var ip = ""
  var origin = ""
}
