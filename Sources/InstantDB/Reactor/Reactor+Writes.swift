import Foundation
import InstantCore
import Logging
import Clocks

extension Reactor {
  /// Expands `ops`, shows the write to every query at once, saves it (the *enqueued* moment; a
  /// write that cannot be saved is withdrawn and throws) and sends it if connected. Returns the
  /// write's id.
  func transact(_ ops: [InstaMLOp]) throws(InstantClientError) -> String {
    guard !isShutDown else { throw InstantClientError(.shutDown, "the client was shut down") }
    switch appStatus {
    case .active: break
    case .readOnly: throw InstantClientError(.appReadOnly, "the app is read-only; writes are refused until it is active")
    case .disabled: throw InstantClientError(.appDisabled, "the app is disabled; writes are refused")
    }
    let steps: [JSON]
    do {
      // Whether an update is strict (`mode: update`) depends on whether this device has seen the
      // entity: asked of the stores with pending writes applied, so an update after a local
      // delete is an upsert (the user's intent), not a strict update the server will refuse.
      let instaml = InstaML(
        attrs: optimisticAttrs(), stores: queries.overlays, schema: config.schema)
      steps = try instaml.transform(ops)
    } catch {
      throw InstantClientError(.invalidOps, error.description, underlying: error)
    }
    let sendNow = status == .authenticated
    let m = PendingMutation(
      id: InstantID.make(), order: writes.nextOrder,
      created: (config.now().timeIntervalSince1970 * 1000).rounded(), steps: steps, wasSent: sendNow)
    // Shown first, saved next: subscribers are not kept waiting on the disk. A new write comes
    // after every pending one, so it is applied on top of each overlay as is.
    perform(queries.apply(m))
    do {
      try storage.insert(m)
    } catch {
      // Not saved, so not made: withdrawn from every query before the caller hears why.
      perform(queries.withdraw(nil, queryContext))
      throw InstantClientError(.storage, "the write could not be saved on this device: \(error)", underlying: error)
    }
    writes.append(m)
    // Kept up to date rather than rebuilt, so an enqueue costs the same whatever the backlog.
    if optimisticAttrsCache != nil { Self.addAttrs(of: m, to: &optimisticAttrsCache!, logger: logger) }
    if sendNow {
      send(m.frame(resend: false))
      writes.markSent(m.id)
    }
    notifyPendingWatchers()
    return m.id
  }

  /// The server's attrs plus those created by pending writes.
  func optimisticAttrs() -> AttrStore {
    if let optimisticAttrsCache { return optimisticAttrsCache }
    var result = attrs
    for m in writes.pending { Self.addAttrs(of: m, to: &result, logger: logger) }
    optimisticAttrsCache = result
    return result
  }

  static func addAttrs(of m: PendingMutation, to attrs: inout AttrStore, logger: Logger) {
    // A pending write re-sends the unsynced attrs it uses: most are known already, and only the
    // others are parsed.
    for json in m.addedAttrs {
      guard let id = json["id"]?.stringValue, attrs[id] == nil else { continue }
      do {
        attrs.add(try Attr(json: json))
      } catch {
        // The write keeps the step and the server judges it; only this device's view lacks the attr.
        logger.error("write \(m.id) creates an attr \(id) that does not parse, so its values are not shown locally until the server's attrs arrive: \(error)")
      }
    }
  }

  /// Waits for the server's answer to a write: its tx-id, or its error.
  func synced(_ id: String) async throws(InstantClientError) -> Int {
    switch writes.status(of: id) {
    case let .finished(outcome): return try outcome.get()
    case let .acknowledged(txID): return txID
    case .unknown:
      throw InstantClientError(.unknownWrite, "no write with id \(id) is pending or recently finished on this client")
    case .waiting: break
    }
    // After shutdown nobody would ever resume the wait.
    guard !isShutDown else { throw InstantClientError(.shutDown, "the client was shut down") }
    // A cancelled waiter stops waiting (the write stays pending): a task that gives up on the
    // server, such as a test past its time limit, is not left suspended for good.
    let waiter = UUID()
    return try await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<Int, InstantClientError>, Never>) in
        guard !Task.isCancelled else { return continuation.resume(returning: .failure(Self.waitCancelled)) }
        syncWaiters[id, default: [:]][waiter] = continuation
      }
    } onCancel: {
      Task { await self.stopWaiting(for: id, waiter) }
    }.get()
  }

  private static let waitCancelled = InstantClientError(
    .cancelled, "the wait for the server's answer was cancelled; the write is still pending")

  private func stopWaiting(for id: String, _ waiter: UUID) {
    guard let continuation = syncWaiters[id]?.removeValue(forKey: waiter) else { return }
    if syncWaiters[id]?.isEmpty == true { syncWaiters[id] = nil }
    continuation.resume(returning: .failure(Self.waitCancelled))
  }

  /// Records how a write ended and wakes those waiting for it.
  func finish(_ id: String, _ outcome: Result<Int, InstantClientError>) {
    writes.finish(id, outcome)
    for waiter in (syncWaiters.removeValue(forKey: id) ?? [:]).values { waiter.resume(returning: outcome) }
  }

  /// A write the server refused, already out of the queue: gone from every query, error to the caller.
  func reject(_ m: PendingMutation, _ error: InstantClientError) {
    optimisticAttrsCache = nil
    storage.delete([m.id], logger: logger)
    logger.error("the server rejected a write: \(error)")
    perform(queries.withdraw([m.id], queryContext))
    finish(m.id, .failure(error))
    rejectionWatchers.yield(RejectedWrite(id: m.id, error: error))
    notifyPendingWatchers()
  }

  /// Drops acknowledged writes that every query's result already reflects (docs/protocol.md, "Pending writes").
  /// With no query holding a result, an acknowledged write has nothing left to overlay.
  ///
  /// A query whose namespace no write touches is never refreshed, so its result never says it
  /// reflects a later transaction, and acknowledged writes would pile up behind it (each one
  /// applied again to every overlay). As the reference client does, once
  /// ``pendingCleanup``'s threshold of writes is pending, those acknowledged longer ago than its
  /// age are dropped: a query the write affects has had that long to be refreshed.
  func cleanUpConfirmedWrites() {
    let ids = writes.dropFinished(
      floor: queries.reflectedTxID, now: config.clock.now, threshold: pendingCleanup.threshold,
      age: pendingCleanup.age)
    guard !ids.isEmpty else { return }
    // Their attrs joined the server's table on transact-ok, so the optimistic table is unchanged.
    storage.delete(Array(ids), logger: logger)
    queries.forgetWrites(ids)
    notifyPendingWatchers()
  }
}
