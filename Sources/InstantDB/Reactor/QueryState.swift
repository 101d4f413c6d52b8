import Foundation
import InstantCore

/// One distinct query (by canonical JSON): its subscribers, the server's answer, and the store
/// with this device's pending writes applied on top.
struct QueryState {
  let q: JSON
  /// The `client-event-id` of its `add-query`, reused on every re-send as the reference does.
  let eventID: String
  var subscribers: [UUID: AsyncStream<QueryResult>.Continuation] = [:]

  var pageInfo: JSON?
  var processedTxID: Int?
  /// The socket (`Reactor.socketGeneration`) the result came on.
  var resultSocket: Int?
  /// Whether the server answered on the current socket.
  var isFresh = false
  var error: InstantClientError?

  /// The server's triples as a store, exactly as received (never with local writes baked in):
  /// built from a whole result, kept current by result changes. The attrs it was built with may
  /// change, so the triples whose attr it did not know are kept beside it, in ``unindexed``.
  var base: TripleStore?
  var unindexed: [Triple] = []
  /// `base` plus the pending writes that apply, in order; ids of those writes.
  var overlay: TripleStore?
  var overlaid: [String] = []

  var lastDelivered: QueryResult?
  /// The answer kept row by row, for an entity-local query (``LiveRows``), and the entities changed
  /// since it was brought up to date (`nil`: not known, so the next answer is evaluated whole).
  var live: LiveRows?
  var touched: Set<String>?
  /// The entities the pending writes in ``overlay`` touched: an overlay built without them changes
  /// them back.
  var overlayTouched: Set<String>? = []

  init(q: JSON) {
    self.q = q
    self.eventID = InstantID.make()
  }

  var hasResult: Bool { base != nil }

  /// Every triple of the server's result (``base``'s and ``unindexed``).
  var serverTriples: [Triple]? { base.map { $0.triples + unindexed } }

  /// The server's result as the cache keeps it (made into rows only when saved).
  var cached: ClientStorage.CachedQuery? {
    base.map {
      ClientStorage.CachedQuery(q: q, store: $0, unindexed: unindexed, pageInfo: pageInfo, processedTxID: processedTxID)
    }
  }
}
