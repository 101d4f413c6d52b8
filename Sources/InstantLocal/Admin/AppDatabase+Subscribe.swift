import Foundation
import InstantCore
import OrderedCollections

/// The admin SDK's `subscribeQuery` (`POST /admin/subscribe-query`): a session like a client's,
/// whose messages go out as server-sent events and whose results are trees.
extension AppDatabase {
  /// Opens the stream's session as `asker`: `sse-init`, then `q`'s first result as `add-query-ok`
  /// (or the `error` a bad query gets); later results come as `refresh-ok`, as on any session,
  /// until ``closeSession(_:)``.
  func openQueryStream(id: String, sink: SessionSink, asker: Asker, q: JSON, inference: Bool) {
    // Like a modern client's socket, a stream hears of the attrs only when they change.
    var features = SessionFeatures()
    features.skipAttrs = true
    var record = SessionRecord(id: id, sink: sink, features: features, asker: asker, attrsVersionSent: attrsVersion)
    record.resultShape = .tree(inference: inference)
    sessions[id] = record
    sink.send(.sseInit(machineID: RoomMembers.instanceID, sessionID: id))
    let clientEventID = ClientEventID(UUID().uuidString.lowercased())
    do {
      try addQuery(session: id, q: q, clientEventID: clientEventID)
    } catch {
      sink.send(.error(error, clientEventID: clientEventID, originalEvent: OriginalEvent(op: .addQuery, q: q, sessionID: id)))
    }
  }
}
