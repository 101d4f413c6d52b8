import Foundation
import InstantCore
import Logging
import OrderedCollections

/// One WebSocket session: parses each frame, dispatches it, and turns failures into the
/// reference's `error` messages (docs/protocol.md, "Errors"). Messages are handled one at a time, in
/// arrival order; a bad message never ends the session.
///
/// Used only from its socket's task, so it needs no synchronization.
final class SessionConnection {
  let id: String
  let registry: AppRegistry
  let sink: SessionSink
  let maxMessageBytes: Int
  let logger: Logger
  /// Where the socket comes from, for rules.
  let peer: SessionPeer
  /// The transaction rate (``ServerLimits``).
  let limits: RequestLimits
  private var app: AppDatabase?

  init(
    registry: AppRegistry, sink: SessionSink, maxMessageBytes: Int, peer: SessionPeer = SessionPeer(),
    limits: RequestLimits = .unlimited, logger: Logger
  ) {
    self.peer = peer
    self.limits = limits
    self.id = UUID().uuidString.lowercased()
    self.registry = registry
    self.sink = sink
    self.maxMessageBytes = maxMessageBytes
    self.logger = logger
  }

  /// Handles frames that arrived while the previous ones were being handled, in order. Their
  /// transactions' refreshes are deferred to one pass at the end of the batch (a client's
  /// burst of writes, a backlog flushing after a reconnect, then costs one re-run of each
  /// query rather than one per write); a lone frame is handled as ``receive(_:)`` does.
  func receive(batch: [String]) async {
    guard batch.count > 1 else {
      if let text = batch.first { await receive(text) }
      return
    }
    for text in batch { await receive(text, deferringRefresh: true) }
    await app?.refreshDeferred()
  }

  /// The `client-event-id` of a frame that is not read as JSON (too large, or malformed), found by
  /// its text: the error then reaches the write or query that sent it, which the client refuses
  /// and reports, instead of an error nobody can place (a write left pending, sent again on every
  /// connection). ``ClientEventID/none`` when the frame names none.
  static func clientEventID(in text: String) -> ClientEventID {
    let key = "\"client-event-id\""
    var rest = Substring(text)
    while let found = rest.range(of: key) {
      rest = rest[found.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
      guard rest.first == ":" else { continue }
      rest = rest.dropFirst().drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
      guard rest.first == "\"" else { continue }
      let value = rest.dropFirst().prefix { $0 != "\"" && $0 != "\\" }
      guard value.count <= 200, rest.dropFirst(value.count + 1).first == "\"" else { continue }
      return ClientEventID(String(value))
    }
    return .none
  }

  /// Handles one text frame.
  func receive(_ text: String, deferringRefresh: Bool = false) async {
    let size = text.utf8.count
    guard size <= maxMessageBytes else {
      let error = ServerError.validation(
        "message", input: ["size": .number(Double(size)), "limit": .number(Double(maxMessageBytes))],
        ["The message is \(size) bytes; the limit is \(maxMessageBytes). Send smaller transactions or start instant-local with a larger --max-message-bytes."])
      send(error, clientEventID: Self.clientEventID(in: text), originalEvent: OriginalEvent(sessionID: id))
      return
    }
    let event: JSON
    do {
      event = try JSON.parse(text)
    } catch {
      let failure = ServerError(
        .paramMalformed, message: "Malformed JSON: \(error.description)",
        hint: ["in": [], "original-input": .string(String(text.prefix(200)))])
      send(failure, clientEventID: Self.clientEventID(in: text), originalEvent: OriginalEvent(sessionID: id))
      return
    }
    let clientEventID = ClientEventID(json: event["client-event-id"] ?? .null)
    do {
      try await dispatch(event, clientEventID: clientEventID, deferringRefresh: deferringRefresh)
    } catch {
      send(error, clientEventID: clientEventID, originalEvent: OriginalEvent(request: event, sessionID: id))
    }
  }

  private func send(_ error: ServerError, clientEventID: ClientEventID, originalEvent: OriginalEvent) {
    sink.send(text: ServerMessage.error(error, clientEventID: clientEventID, originalEvent: originalEvent).serialized())
  }

  /// Called once the socket has closed.
  func close() async {
    await app?.closeSession(id)
  }

  private func dispatch(_ event: JSON, clientEventID: ClientEventID, deferringRefresh: Bool) async throws(ServerError) {
    let op = try ClientMessage.op(of: event)
    if op == .initialize, app != nil {
      // The input echoed back without the token: an error frame is what clients log.
      var input = event.objectValue ?? [:]
      input.removeValue(forKey: "refresh-token")
      input.removeValue(forKey: "__admin-token")
      throw .validation("init", input: .object(input), ["`init` has already run for this session."])
    }
    guard op == .initialize || app != nil else { throw .initNotRun(sessionID: id) }
    let message = try ClientMessage(frame: event, op: op)
    switch message.body {
    case let .initialize(appID, refreshToken, versions):
      try await handleInit(
        appID: appID, refreshToken: refreshToken, adminToken: event["__admin-token"]?.stringValue, versions: versions,
        clientEventID: clientEventID)
    case let .addQuery(q):
      try await app?.addQuery(session: id, q: q, clientEventID: clientEventID)
    case let .removeQuery(q):
      await app?.removeQuery(session: id, q: q, clientEventID: clientEventID)
    case let .transact(txSteps, _, _):
      if let app {
        // Over the rate a transaction waits its turn, never refused (``ServerLimits``); reading
        // the socket waits with it.
        let turn = limits.transactionTurn(from: peer.ip, appID: app.appID)
        if turn > .zero { try? await registry.clock.sleep(for: turn) }
      }
      try await app?.transact(session: id, txSteps: txSteps, clientEventID: clientEventID, deferringRefresh: deferringRefresh)
    case let .joinRoom(roomID, _, data):
      await app?.joinRoom(session: id, roomID: roomID, data: data, clientEventID: clientEventID)
    case let .leaveRoom(roomID):
      await app?.leaveRoom(session: id, roomID: roomID, clientEventID: clientEventID)
    case let .setPresence(roomID, data):
      try await app?.setPresence(session: id, roomID: roomID, data: data, clientEventID: clientEventID)
    case let .clientBroadcast(roomID, _, topic, data):
      try await app?.broadcast(session: id, roomID: roomID, topic: topic, data: data, clientEventID: clientEventID)
    }
  }

  private func handleInit(
    appID text: String, refreshToken: String?, adminToken: String?, versions: JSON, clientEventID: ClientEventID
  ) async throws(ServerError) {
    guard let appID = AppRegistry.normalizeAppID(text) else { throw .paramMalformed("app-id", input: .string(text)) }
    // The admin SDK's sessions carry the app's admin token: no rule binds them.
    if let adminToken { try await registry.authorizeAdmin(appID: appID, authorization: adminToken) }
    let app = try await registry.app(appID)
    try await app.initSession(
      id: id, sink: sink, features: SessionFeatures(versions: versions), peer: peer, refreshToken: refreshToken,
      isAdmin: adminToken != nil, clientEventID: clientEventID)
    self.app = app
  }

}
