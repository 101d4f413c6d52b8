import Foundation
import InstantCore
import OrderedCollections
import Logging
import Clocks

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
    // Shutting down: the socket is closing and every waiter has been answered; a frame still on
    // its way is not used (an error in it is no refused init, an init-ok no second one).
    guard !isShutDown else { return }
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
      handleError(error, clientEventID: clientEventID.string, originalEvent: originalEvent)
    case let .appStatusChanged(status):
      setAppStatus(status)
    case .addQueryExists, .removeQueryOK, .setPresenceOK, .clientBroadcastOK, .leaveRoomOK:
      break
    case .sseInit:
      logger.error("skipped an sse-init, which only an admin query stream carries")
    case .joinRoomOK, .joinRoomError, .refreshPresence, .patchPresence, .serverBroadcast:
      handleRoomMessage(message)
    }
  }

  private func handleInitOK(sessionID: String?, auth: JSON, appStatus: String?, attrs: JSON) {
    // `init` runs once per socket: another `init-ok` would re-send every query and write.
    let (accepted, newStatus) = connectionState.initOK(sessionID: sessionID)
    guard accepted else { return logger.error("skipped an init-ok on a socket that already had one") }
    if let appStatus { setAppStatus(appStatus) }
    if attrs != .null { replaceAttrs(attrs) }
    publish(newStatus)
    receiveInitUser(auth["user"])
    // Re-send every live query (with its original event id), then every write the server has not
    // acknowledged, in order (docs/protocol.md, "Offline replay").
    queries.resubscriptions.forEach(send)
    // A re-sent write goes without the steps that later writes undo (MootSteps).
    let (frames, firstSent) = writes.resend(knownAttrs: optimisticAttrs())
    do { try storage.markSent(firstSent) } catch { logger.error("could not record sent writes: \(error)") }
    frames.forEach(send)
    notifyPendingWatchers()
    rejoinRooms()
  }

  private func handleRefresh(processedTxID: Int?, computations: [ServerMessage.Computation], attrs: JSON?) {
    if let attrs { replaceAttrs(attrs) }
    for computation in computations {
      switch computation.content {
      case let .result(result):
        receiveResult(for: computation.q.value, result: result.value, processedTxID: processedTxID)
      case let .changes(changes):
        receiveChanges(for: computation.q.value, changes, processedTxID: processedTxID)
      }
    }
    cleanUpConfirmedWrites()
  }

  private func handleTransactOK(txID: Int, clientEventID: ClientEventID) {
    guard let id = clientEventID.string, let m = writes.acknowledge(id, txID: txID, at: config.clock.now) else {
      return
    }
    storage.confirm(id, txID: txID, logger: logger)
    // The write's attrs now exist on the server.
    var attrsChanged = false
    for attrJSON in m.addedAttrs {
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

  private func handleError(_ serverError: ServerError, clientEventID eventID: String?, originalEvent original: OriginalEvent) {
    let originalOp = original.op
    if let eventID {
      switch writes.refuse(eventID, serverError) {
      case .notAWrite: break
      case .keepPending:
        logger.error("the server could not finish a write (status \(serverError.status)); it stays pending")
        notifyPendingWatchers()
        return
      case .retryWithServerAttrs:
        // Reconnecting brings the server's attrs in `init-ok`; the queue is rewritten to them
        // (AttrRewriter) and sent again in order.
        logger.info("a write raced another client creating the same attribute; retrying with the server's attrs")
        Task { await self.reconnectNow() }
        return
      case .retryAfterRace:
        logger.info("a write sent after one that raced was refused (\(serverError.message)); it goes again after that one")
        notifyPendingWatchers()
        return
      case let .rejected(m):
        reject(m, InstantClientError(serverError, kind: .transactionRejected))
        return
      }
    }
    if originalOp == .addQuery, let q = original.q {
      return perform(queries.refused(q, InstantClientError(serverError, kind: .queryRejected)))
    }
    if let originalOp, originalOp.isRoomOp {
      return handleRoomError(serverError, op: originalOp, roomID: original.roomID)
    }
    if handleAuthError(serverError, originalOp: originalOp) { return }
    if status != .authenticated || originalOp == .initialize {
      let error = InstantClientError(serverError, kind: .initRejected)
      logger.error("the server refused init: \(error)")
      publish(connectionState.initRefused(error))
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
    storage.saveAttrs(json, logger: logger)
    let changed = writes.rewrite(against: attrs)
    storage.replaceSteps(changed, logger: logger)
    perform(queries.attrsChanged(queryContext))
  }
}
