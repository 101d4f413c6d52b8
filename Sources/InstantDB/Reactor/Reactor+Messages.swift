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

  func handleMessage(_ frame: JSON) {
    let message: ServerMessage
    do {
      message = try ServerMessage(frame: frame)
    } catch {
      return logger.error("skipped \(error)")
    }
    switch message {
    case let .initOK(sessionID, _, auth, appStatus, attrs):
      handleInitOK(sessionID: sessionID, auth: auth, appStatus: appStatus, attrs: attrs.value)
    case let .addQueryOK(q, result, processedTxID, _):
      receiveResult(for: q.value, result: result.value, processedTxID: processedTxID)
      cleanUpConfirmedWrites()
    case let .refreshOK(processedTxID, computations, attrs):
      handleRefresh(processedTxID: processedTxID, computations: computations, attrs: attrs?.value)
    case let .transactOK(txID, clientEventID):
      handleTransactOK(txID: txID, clientEventID: clientEventID)
    case let .error(error, clientEventID, originalEvent):
      handleError(error, clientEventID: clientEventID.stringValue, originalEvent: originalEvent)
    case let .appStatusChanged(status):
      setAppStatus(status)
    case .addQueryExists, .removeQueryOK, .setPresenceOK, .clientBroadcastOK, .leaveRoomOK:
      break
    case .joinRoomOK, .joinRoomError, .refreshPresence, .patchPresence, .serverBroadcast:
      handleRoomMessage(message)
    }
  }

  private func handleInitOK(sessionID: String, auth: JSON, appStatus: String?, attrs: JSON) {
    // `init` runs once per socket: another `init-ok` would re-send every query and write.
    guard status == .opened else { return logger.error("skipped an init-ok on a socket that already had one") }
    backoff.reset()
    lastError = nil
    self.sessionID = sessionID.isEmpty ? nil : sessionID
    if let appStatus { setAppStatus(appStatus) }
    if attrs != .null { replaceAttrs(attrs) }
    setStatus(.authenticated)
    receiveInitUser(auth["user"])
    // Re-send every live query (with its original event id), then every write the server has not
    // acknowledged, in order (docs/protocol.md, "Offline replay").
    for state in queries.values.sorted(by: { $0.eventID < $1.eventID }) where !state.subscribers.isEmpty {
      send(ClientMessage(clientEventID: state.eventID, .addQuery(q: state.q)))
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
    var frames: [Int: ClientMessage] = [:]
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

  private func handleRefresh(processedTxID: Int?, computations: [ServerMessage.Computation], attrs: JSON?) {
    if let attrs { replaceAttrs(attrs) }
    for computation in computations {
      receiveResult(for: computation.q.value, result: computation.result.value, processedTxID: processedTxID)
    }
    cleanUpConfirmedWrites()
  }

  private func handleTransactOK(txID: Int, clientEventID: JSON) {
    guard let id = clientEventID.stringValue, let i = mutations.firstIndex(where: { $0.id == id }) else {
      return
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

  private func handleError(_ serverError: ServerError, clientEventID eventID: String?, originalEvent original: JSON) {
    let originalOp = original["op"]?.stringValue.flatMap(ClientOp.init(rawValue:))
    if let eventID, let i = mutations.firstIndex(where: { $0.id == eventID }) {
      let status = serverError.status
      if serverError.isFault {
        // A timeout or server fault: the write may or may not have committed. Keep it pending and
        // send it again on the next connection rather than losing it.
        logger.error("the server could not finish a write (status \(status)); it stays pending")
        mutations[i].sentOnThisSocket = false
        notifyPendingWatchers()
        return
      }
      let error = InstantClientError(serverError, kind: .transactionRejected)
      if serverError.isAttrConflict, attrConflictRetries[eventID, default: 0] < 3 {
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
    if originalOp == .addQuery, let q = original["q"] {
      let key = q.canonicalString
      guard queries[key] != nil else { return }
      queries[key]!.error = InstantClientError(serverError, kind: .queryRejected)
      deliver(key)
      return
    }
    if let originalOp, originalOp.isRoomOp {
      return handleRoomError(serverError, op: originalOp, roomID: original["room-id"]?.stringValue)
    }
    if handleAuthError(serverError, originalOp: originalOp) { return }
    if status != .authenticated || originalOp == .initialize {
      let error = InstantClientError(serverError, kind: .initRejected)
      lastError = error
      logger.error("the server refused init: \(error)")
      setStatus(.errored)
      return
    }
    logger.error("server error: \(serverError.message) (\(serverError.type?.rawValue ?? "?"))")
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
