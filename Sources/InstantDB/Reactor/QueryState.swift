import Foundation
import InstantCore

/// One distinct query (by canonical JSON): its subscribers, the server's answer, and the store
/// with this device's pending writes applied on top.
struct QueryState {
  let q: JSON
  /// The `client-event-id` of its `add-query`, reused on every re-send as the reference does.
  let eventID: String
  var subscribers: [UUID: AsyncStream<QueryResult>.Continuation] = [:]

  /// The server's triples, exactly as received (never with local writes baked in).
  var serverTriples: [JSON]?
  var pageInfo: JSON?
  var processedTxID: Int?
  /// The socket (`Reactor.socketGeneration`) the result came on.
  var resultSocket: Int?
  /// Whether the server answered on the current socket.
  var isFresh = false
  var error: InstantClientError?

  /// The server's triples as a store (the attrs it was built with may change).
  var base: TripleStore?
  /// `base` plus the pending writes that apply, in order; ids of those writes.
  var overlay: TripleStore?
  var overlaid: [String] = []

  var lastDelivered: QueryResult?

  init(q: JSON) {
    self.q = q
    self.eventID = InstantID.make()
  }

  var hasResult: Bool { serverTriples != nil }
}
