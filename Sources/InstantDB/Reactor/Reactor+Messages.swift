import Foundation
import InstantCore
import OrderedCollections
import Logging

extension Reactor {
  /// One frame from the server: an object, or an array of them. Anything malformed is logged and
  /// skipped; it never stops the socket.
  func handleFrame(_ text: String) {
    let frame: JSON
    do {
      frame = try JSON.parse(text)
    } catch {
      logger.error("skipped a frame that is not JSON (\(text.utf8.count) bytes): \(error)")
      return
    }
    if logger.logLevel <= .debug { logger.debug("← \(Self.redacted(frame).serialized().prefix(2_000))") }
    switch frame {
    case let .array(messages): messages.forEach(handleMessage)
    case .object: handleMessage(frame)
    default: logger.error("skipped a frame that is neither an object nor an array")
    }
  }

  func handleMessage(_ message: JSON) {
    guard let op = message["op"]?.stringValue else {
      logger.error("skipped a message without an op")
      return
    }
    switch op {
    case "init-ok": handleInitOK(message)
    case "add-query-ok":
      guard let q = message["q"], let result = message["result"] else {
        return logger.error("skipped an add-query-ok without q or result")
      }
      receiveResult(for: q, result: result, processedTxID: message["processed-tx-id"]?.intValue)
      cleanUpConfirmedWrites()
    case "refresh-ok": handleRefresh(message)
    case "transact-ok": handleTransactOK(message)
    case "error": handleError(message)
    case "app-status-changed":
      if let raw = message["status"]?.stringValue { setAppStatus(raw) }
    case "add-query-exists", "remove-query-ok", "set-presence-ok", "client-broadcast-ok", "leave-room-ok":
      break
    default:
      if !handleRoomMessage(op, message) { logger.debug("ignored a message with op \(op)") }
    }
  }

  private func handleInitOK(_ message: JSON) {
    // `init` runs once per socket: another `init-ok` would re-send every query and write.
    guard status == .opened else { return logger.error("skipped an init-ok on a socket that already had one") }
    backoff.reset()
    lastError = nil
    sessionID = message["session-id"]?.stringValue
    if let raw = message["app-status"]?["status"]?.stringValue { setAppStatus(raw) }
    if let attrsJSON = message["attrs"] { replaceAttrs(attrsJSON) }
    setStatus(.authenticated)
    receiveInitUser(message["auth"]?["user"])
    // Re-send every live query (with its original event id), then every write the server has not
    // acknowledged, in order (docs/protocol.md, "Offline replay").
    for state in queries.values.sorted(by: { $0.eventID < $1.eventID }) where !state.subscribers.isEmpty {
      send(["op": "add-query", "client-event-id": .string(state.eventID), "q": state.q])
    }
    let unsent = mutations.indices.filter { mutations[$0].txID == nil }
    do {
      try storage.markSent(unsent.filter { !mutations[$0].wasSent }.map { mutations[$0].id })
    } catch {
      logger.error("could not record sent writes: \(error)")
    }
    // A re-sent write goes without the steps that later writes undo anyway (MootSteps).
    var moot = MootSteps()
    let knownAttrs = optimisticAttrs()
    var frames: [Int: JSON] = [:]
    for i in mutations.indices.reversed() {
      if mutations[i].txID == nil {
        if mutations[i].wasSent {
          frames[i] = mutations[i].frame(resend: true, steps: moot.filter(mutations[i].steps, attrs: knownAttrs))
        } else {
          frames[i] = mutations[i].frame(resend: false)
          moot.keepEntities(namedBy: mutations[i].steps)
        }
      }
      moot.absorb(mutations[i].steps)
    }
    for i in unsent {
      send(frames[i]!)
      mutations[i].sentOnThisSocket = true
      mutations[i].wasSent = true
    }
    notifyPendingWatchers()
    rejoinRooms()
  }

  private func handleRefresh(_ message: JSON) {
    if let attrsJSON = message["attrs"] { replaceAttrs(attrsJSON) }
    let processed = message["processed-tx-id"]?.intValue
    for computation in message["computations"]?.arrayValue ?? [] {
      guard let q = computation["instaql-query"], let result = computation["instaql-result"] else {
        logger.error("skipped a refresh computation without instaql-query or instaql-result")
        continue
      }
      receiveResult(for: q, result: result, processedTxID: processed)
    }
    cleanUpConfirmedWrites()
  }

  private func handleTransactOK(_ message: JSON) {
    guard let id = message["client-event-id"]?.stringValue, let i = mutations.firstIndex(where: { $0.id == id }) else {
      return
    }
    guard let txID = message["tx-id"]?.intValue else {
      return logger.error("skipped a transact-ok without a tx-id")
    }
    mutations[i].txID = txID
    mutations[i].confirmed = .now
    do { try storage.confirm(id, txID: txID) } catch { logger.error("could not record an acknowledged write: \(error)") }
    // The write's attrs now exist on the server.
    var attrsChanged = false
    for attrJSON in mutations[i].addedAttrs {
      guard case var .object(o) = attrJSON else { continue }
      o["isUnsynced"] = nil
      do {
        let attr = try Attr(json: o)
        guard attrs[attr.id] == nil else { continue }
        attrs.add(attr)
        attrsChanged = true
      } catch {
        logger.error("an attr of acknowledged write \(id) does not parse; its values stay hidden locally until the server's attrs arrive: \(error)")
      }
    }
    if attrsChanged { optimisticAttrsCache = nil }
    finish(id, .success(txID))
    cleanUpConfirmedWrites()
    notifyPendingWatchers()
  }

  private func handleError(_ message: JSON) {
    let eventID = message["client-event-id"]?.stringValue
    let original = message["original-event"]
    if let eventID, let i = mutations.firstIndex(where: { $0.id == eventID }) {
      let status = message["status"]?.intValue ?? 400
      if status >= 500 {
        // A timeout or server fault: the write may or may not have committed. Keep it pending and
        // send it again on the next connection rather than losing it.
        logger.error("the server could not finish a write (status \(status)); it stays pending")
        mutations[i].sentOnThisSocket = false
        notifyPendingWatchers()
        return
      }
      let error = InstantClientError(serverError: message, kind: .transactionRejected)
      if Self.isAttrConflict(error), attrConflictRetries[eventID, default: 0] < 3 {
        // Another client created one of this write's attributes first, under another id. The
        // write is fine once its attr ids are the server's: reconnect, so that `init-ok` brings the
        // attrs, the queue is rewritten (AttrRewriter) and re-sent in order.
        attrConflictRetries[eventID, default: 0] += 1
        logger.info("a write raced another client creating the same attribute; retrying with the server's attrs")
        mutations[i].sentOnThisSocket = false
        Task { await self.reconnectNow() }
        return
      }
      reject(at: i, error)
      return
    }
    if original?["op"]?.stringValue == "add-query", let q = original?["q"] {
      let key = q.canonicalString
      guard queries[key] != nil else { return }
      queries[key]!.error = InstantClientError(serverError: message, kind: .queryRejected)
      deliver(key)
      return
    }
    if handleRoomError(message) || handleAuthError(message) { return }
    if status != .authenticated || original?["op"]?.stringValue == "init" {
      let error = InstantClientError(serverError: message, kind: .initRejected)
      lastError = error
      logger.error("the server refused init: \(error)")
      setStatus(.errored)
      return
    }
    logger.error("server error: \(message["message"]?.stringValue ?? "?") (\(message["type"]?.stringValue ?? "?"))")
  }

  /// The server refused an `add-attr` because the same attribute exists with another id, told by
  /// the error's wire `type` and `hint` (``TransactionError/isAttrConflict(type:hint:)``), never
  /// by its message. An attr id that exists with other properties is not this race: rewriting to
  /// the server's ids cannot fix it, so that write is rejected at once.
  static func isAttrConflict(_ error: InstantClientError) -> Bool {
    TransactionError.isAttrConflict(type: error.serverType, hint: error.hint)
  }

  private func setAppStatus(_ raw: String) {
    guard let new = AppStatus(rawValue: raw) else { return logger.error("unknown app status \(raw)") }
    appStatus = new
  }

  /// Replaces the attr table (the server's word), rewrites pending writes that invented attrs the
  /// server now has under other ids, and rebuilds every query's store.
  private func replaceAttrs(_ json: JSON) {
    do {
      attrs = try AttrStore(json: json, linkIndex: config.schema?.linkIndex)
    } catch {
      return logger.error("skipped an attr table that does not parse: \(error)")
    }
    optimisticAttrsCache = nil
    do { try storage.saveAttrs(json) } catch { logger.error("could not save attrs: \(error)") }
    let changed = AttrRewriter.rewrite(&mutations, against: attrs)
    if !changed.isEmpty {
      do { try storage.replaceSteps(changed.map { mutations[$0] }) } catch {
        logger.error("could not save rewritten writes: \(error)")
      }
    }
    for key in queries.keys {
      if let triples = queries[key]!.serverTriples { queries[key]!.base = makeStore(triples) }
      rebuildOverlay(key)
      deliver(key)
    }
  }
}
