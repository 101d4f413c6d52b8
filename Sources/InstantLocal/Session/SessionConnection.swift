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
  private var app: AppDatabase?

  init(registry: AppRegistry, sink: SessionSink, maxMessageBytes: Int, logger: Logger) {
    self.id = UUID().uuidString.lowercased()
    self.registry = registry
    self.sink = sink
    self.maxMessageBytes = maxMessageBytes
    self.logger = logger
  }

  /// The ops this server handles once `init` has run.
  static let sessionOps: Set<String> = [
    "add-query", "remove-query", "transact", "join-room", "leave-room", "set-presence", "client-broadcast",
  ]

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
  /// connection). `null` when the frame names none.
  static func clientEventID(in text: String) -> JSON {
    let key = "\"client-event-id\""
    var rest = Substring(text)
    while let found = rest.range(of: key) {
      rest = rest[found.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
      guard rest.first == ":" else { continue }
      rest = rest.dropFirst().drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
      guard rest.first == "\"" else { continue }
      let value = rest.dropFirst().prefix { $0 != "\"" && $0 != "\\" }
      guard value.count <= 200, rest.dropFirst(value.count + 1).first == "\"" else { continue }
      return .string(String(value))
    }
    return .null
  }

  /// Handles one text frame.
  func receive(_ text: String, deferringRefresh: Bool = false) async {
    let size = text.utf8.count
    guard size <= maxMessageBytes else {
      let error = ProtocolError.validation(
        "message", input: ["size": .number(Double(size)), "limit": .number(Double(maxMessageBytes))],
        ["The message is \(size) bytes; the limit is \(maxMessageBytes). Send smaller transactions or start instant-local with a larger --max-message-bytes."])
      sink.send(error.message(clientEventID: Self.clientEventID(in: text), originalEvent: ["session-id": .string(id)]))
      return
    }
    let event: JSON
    do {
      event = try JSON.parse(text)
    } catch {
      let failure = ProtocolError(
        .paramMalformed, message: "Malformed JSON: \(error.description)",
        hint: ["in": [], "original-input": .string(String(text.prefix(200)))])
      sink.send(failure.message(clientEventID: Self.clientEventID(in: text), originalEvent: ["session-id": .string(id)]))
      return
    }
    let clientEventID = event["client-event-id"] ?? .null
    do {
      try await dispatch(event, clientEventID: clientEventID, deferringRefresh: deferringRefresh)
    } catch {
      var original = event.objectValue ?? [:]
      original["session-id"] = .string(id)
      sink.send(error.message(clientEventID: clientEventID, originalEvent: .object(original)))
    }
  }

  /// Called once the socket has closed.
  func close() async {
    await app?.closeSession(id)
  }

  private func dispatch(_ event: JSON, clientEventID: JSON, deferringRefresh: Bool) async throws(ProtocolError) {
    guard case .object = event, let op = event["op"]?.stringValue else {
      throw .invalidOp(event["op"] ?? .null)
    }
    if op == "init" {
      try await handleInit(event, clientEventID: clientEventID)
      return
    }
    guard Self.sessionOps.contains(op) else { throw .invalidOp(.string(op)) }
    guard let app else { throw .initNotRun(sessionID: id) }
    switch op {
    case "add-query":
      try await app.addQuery(session: id, q: event["q"], clientEventID: clientEventID)
    case "remove-query":
      await app.removeQuery(session: id, q: event["q"], clientEventID: clientEventID)
    case "transact":
      try await app.transact(
        session: id, txSteps: event["tx-steps"], clientEventID: clientEventID, deferringRefresh: deferringRefresh)
    case "join-room":
      let room = try roomID(event)
      await app.joinRoom(session: id, roomID: room, data: event["data"], clientEventID: clientEventID)
    case "leave-room":
      let room = try roomID(event)
      await app.leaveRoom(session: id, roomID: room, clientEventID: clientEventID)
    case "set-presence":
      let room = try roomID(event)
      try await app.setPresence(session: id, roomID: room, data: event["data"], clientEventID: clientEventID)
    case "client-broadcast":
      let room = try roomID(event)
      try await app.broadcast(
        session: id, roomID: room, topic: event["topic"] ?? .null, data: event["data"] ?? .null,
        clientEventID: clientEventID)
    default:
      throw .invalidOp(.string(op))
    }
  }

  private func handleInit(_ event: JSON, clientEventID: JSON) async throws(ProtocolError) {
    guard app == nil else {
      throw .validation("init", input: event, ["`init` has already run for this session."])
    }
    guard let raw = event["app-id"], raw != .null else { throw .paramMissing("app-id") }
    guard let text = raw.stringValue, let appID = AppRegistry.normalizeAppID(text) else {
      throw .paramMalformed("app-id", input: raw)
    }
    let app: AppDatabase
    do {
      app = try await registry.app(appID)
    } catch {
      logger.error("\(error)")
      throw .serverFault("The app could not be loaded: \(error)")
    }
    try await app.initSession(
      id: id, sink: sink, features: SessionFeatures(versions: event["versions"]),
      refreshToken: event["refresh-token"], clientEventID: clientEventID)
    self.app = app
  }

  private func roomID(_ event: JSON) throws(ProtocolError) -> String {
    guard let raw = event["room-id"], raw != .null else { throw .paramMissing("room-id") }
    guard let roomID = raw.stringValue else { throw .paramMalformed("room-id", input: raw) }
    return roomID
  }
}
