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
    /// For a session that receives changes (``SessionRecord/receivesChanges``): the result last
    /// sent, which the next changes are taken against (`nil` as for ``lastResult``).
    var sent: SentResult?
  }

  /// A result as a session that receives changes was last sent it.
  struct SentResult: Sendable {
    /// Shared by every session sent the same result, and changed in place when the result is
    /// kept current: it holds what this session was sent while ``isCurrent``.
    var triples: SentTriples
    var pageInfo: JSON?
    /// The result's version (``AppDatabase/evaluations``).
    var version: Int

    var isCurrent: Bool { triples.version == version }
  }

  /// A result's triples, held once for the sessions sent them, at ``version``.
  ///
  /// Used only on its ``AppDatabase``'s actor, which made it.
  final class SentTriples: @unchecked Sendable {
    var set: Set<Triple>
    var version: Int

    init(_ set: Set<Triple>, version: Int) {
      self.set = set
      self.version = version
    }
  }

  let id: String
  let sink: SessionSink
  let features: SessionFeatures
  /// Who the session is, as rules see it: its user (or a guest) and where it connects from, or
  /// an admin (the admin SDK's `__admin-token`).
  let asker: Asker
  /// Subscribed queries by canonical (sorted-key) `q`.
  var queries: OrderedDictionary<String, Subscription> = [:]
  /// The app's attrs version last sent to this session.
  var attrsVersionSent: Int
  /// Rooms this session is a member of.
  var rooms: Set<String> = []
  /// How its results are written: join rows for the clients' sockets, trees for the admin SDK's
  /// `subscribeQuery`.
  var resultShape: ResultShape = .joinRows

  /// Whether its `refresh-ok` carries what changed in a result rather than the whole of it.
  var receivesChanges: Bool { features.resultChanges && resultShape == .joinRows }

  /// The signed-in user's id, or nil.
  var userID: String? { asker.userID }

  /// The presence/broadcast `user` field: `{id}` or null.
  var userRef: JSON { userID.map { ["id": .string($0)] } ?? .null }
}

/// Who makes a request, as rules see it: an admin, whom no rule binds (instant-local's own
/// writes, the admin API with the admin token), or a signed-in user or guest connected from
/// `peer`.
struct Asker: Sendable, Hashable {
  var isAdmin: Bool
  /// `auth.id` (`nil` for a guest or the admin).
  var userID: String?
  /// `request.ip` and `request.origin`.
  var peer: SessionPeer

  static let admin = Asker(isAdmin: true, userID: nil, peer: SessionPeer())

  /// A user (`nil`: a guest), under the rules.
  static func user(_ id: String?, peer: SessionPeer = SessionPeer()) -> Asker {
    Asker(isAdmin: false, userID: id, peer: peer)
  }

  /// What results depend on under rules.
  var key: String { (isAdmin ? "admin" : "") + "\u{0}" + (userID ?? "") + "\u{0}" + peer.ip + "\u{0}" + peer.origin }
}

/// The other end of a session's socket, as rules see it: `request.ip` (the peer's address) and
/// `request.origin` (the upgrade request's `Origin` header), empty when unknown.
struct SessionPeer: Sendable, Hashable {
  var ip = ""
  var origin = ""
}

/// How a session's query results are written: the reference's `return-type`.
enum ResultShape: Sendable, Hashable {
  /// `join-rows`, what the clients' sockets get: the triples, for the client's own engine.
  case joinRows
  /// `tree`, what the admin SDK's `subscribeQuery` gets: the result as `/admin/query` answers
  /// it, with has-one links as one entity under `inference`.
  case tree(inference: Bool)

  /// Told apart in the invalidation pass's cache of results.
  var key: String {
    switch self {
    case .joinRows: ""
    case let .tree(inference): inference ? "\u{0}tree+" : "\u{0}tree"
    }
  }
}
