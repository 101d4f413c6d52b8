import Foundation
import InstantCore
import OrderedCollections
import Logging

extension Reactor {
  // MARK: Subscribers

  func subscribe(_ q: JSON, id: UUID, _ continuation: AsyncStream<QueryResult>.Continuation) {
    guard !isShutDown else { return continuation.finish() }
    let key = q.canonicalString
    if queries[key] == nil {
      var state = QueryState(q: q)
      if let cached = cache[key] {
        state.serverTriples = cached.triples
        state.pageInfo = cached.pageInfo
        state.processedTxID = cached.processedTxID
        state.base = makeStore(cached.triples)
      }
      queries[key] = state
      rebuildOverlay(key)
      if status == .authenticated { send(ClientMessage(clientEventID: state.eventID, .addQuery(q: q))) }
    }
    queries[key]!.subscribers[id] = continuation
    if let last = queries[key]!.lastDelivered {
      continuation.yield(last)
    } else {
      deliver(key)
    }
  }

  /// What subscribers of `q` were last given, or nil when it has no subscriber or no answer yet.
  func currentResult(_ q: JSON) -> QueryResult? {
    queries[q.canonicalString]?.lastDelivered
  }

  func unsubscribe(_ q: JSON, id: UUID) {
    let key = q.canonicalString
    guard var state = queries[key] else { return }
    state.subscribers[id] = nil
    guard state.subscribers.isEmpty else {
      queries[key] = state
      return
    }
    queries[key] = nil
    if status == .authenticated { send(ClientMessage(clientEventID: InstantID.make(), .removeQuery(q: q))) }
    if let triples = state.serverTriples {
      remember(key, ClientStorage.CachedQuery(q: q, triples: triples, pageInfo: state.pageInfo, processedTxID: state.processedTxID))
    }
  }

  /// Keeps a result for a later subscriber, at most `cachedQueryLimit` of them in memory.
  private func remember(_ key: String, _ cached: ClientStorage.CachedQuery) {
    cache[key] = cached
    while cache.count > config.cachedQueryLimit, let victim = cache.keys.first(where: { $0 != key }) {
      cache[victim] = nil
    }
  }

  // MARK: Server results

  func receiveResult(for q: JSON, result: JSON, processedTxID: Int?) {
    let key = q.canonicalString
    guard let state = queries[key] else { return }
    // On one socket the server's results only move forward: an older one is a replay.
    if state.resultSocket == socketGeneration, let current = state.processedTxID, let processedTxID,
      processedTxID < current
    {
      return logger.error("skipped a result for tx \(processedTxID), older than the one shown (\(current))")
    }
    let triples = ServerResult.triples(result)
    let pageInfo = ServerResult.pageInfo(result)
    queries[key]!.serverTriples = triples
    queries[key]!.pageInfo = pageInfo
    queries[key]!.processedTxID = processedTxID
    queries[key]!.resultSocket = socketGeneration
    queries[key]!.isFresh = true
    queries[key]!.error = nil
    queries[key]!.base = makeStore(triples)
    rebuildOverlay(key)
    deliver(key)
    saveLater(key, ClientStorage.CachedQuery(
      q: queries[key]!.q, triples: triples, pageInfo: pageInfo, processedTxID: processedTxID))
  }

  // MARK: Cache

  /// Keeps the latest result of each query and saves them off the actor at most once a second, so
  /// a busy query costs one serialisation per second rather than one per refresh.
  func saveLater(_ key: String, _ cached: ClientStorage.CachedQuery) {
    cacheBatch[key] = cached
    guard !cacheFlushScheduled else { return }
    cacheFlushScheduled = true
    cacheSave = Task.detached {
      // Cancelled (by shutdown or a sign-out) only cuts the wait short: the batch is saved or
      // dropped on purpose by the canceller, so no error is lost here.
      try? await self.config.clock.sleep(for: .seconds(1))
      await self.saveCache(self.takeCacheBatch())
    }
  }

  func takeCacheBatch() -> [String: ClientStorage.CachedQuery] {
    defer {
      cacheBatch = [:]
      cacheFlushScheduled = false
    }
    return cacheBatch
  }

  nonisolated func saveCache(_ batch: [String: ClientStorage.CachedQuery]) {
    for (key, cached) in batch {
      do { try storage.saveQuery(key: key, cached, limit: config.cachedQueryLimit) } catch {
        logger.error("could not save a query result: \(error)")
      }
    }
  }

  /// A store of the server's triples; rows that are not triples are logged and skipped.
  func makeStore(_ rows: [JSON]) -> TripleStore {
    var triples: [Triple] = []
    triples.reserveCapacity(rows.count)
    var bad = 0
    for row in rows {
      if let triple = Triple(json: row) { triples.append(triple) } else { bad += 1 }
    }
    if bad > 0 { logger.error("skipped \(bad) malformed triples in a server result") }
    return TripleStore(attrs: attrs, triples: triples, cardinalityInference: config.schema != nil)
  }

  /// The server's store with every pending write that it does not reflect yet applied, in order.
  /// The writes are applied in place on one copy of the server's store (a backlog of n writes
  /// costs one copy, not n); a write that fails is logged and left out, and the rest re-applied.
  func rebuildOverlay(_ key: String) {
    guard let base = queries[key]?.base else { return }
    let processed = queries[key]!.processedTxID
    var failed: Set<String> = []
    rebuild: while true {
      var store = base
      var applied: [String] = []
      for m in writes.pending where m.applies(over: processed) && !failed.contains(m.id) {
        do {
          try store.transact(m.steps, atomically: false)
          applied.append(m.id)
        } catch {
          logger.error("a pending write could not be applied locally: \(error)")
          failed.insert(m.id)
          continue rebuild
        }
      }
      queries[key]!.overlay = store
      queries[key]!.overlaid = applied
      return
    }
  }

  /// Evaluates the query with InstantCore and sends the answer to its subscribers if it changed.
  func deliver(_ key: String) {
    guard let state = queries[key], !state.subscribers.isEmpty else { return }
    var result: QueryResult
    if let store = state.overlay {
      do {
        let answer = try store.query(state.q, pageInfo: state.pageInfo)
        result = QueryResult(
          data: answer.data, pageInfo: answer.pageInfo, isFromCache: !state.isFresh, error: state.error,
          hasPendingWrites: !state.overlaid.isEmpty)
      } catch {
        result = QueryResult(
          data: state.lastDelivered?.data ?? .object([:]), isFromCache: !state.isFresh,
          error: InstantClientError(.invalidQuery, "\(error)", underlying: error), hasPendingWrites: false)
      }
    } else if let error = state.error {
      result = QueryResult(data: .object([:]), isFromCache: false, error: error, hasPendingWrites: false)
    } else {
      return
    }
    // The same answer again is not news; a new one is numbered after every earlier one.
    result.sequence = state.lastDelivered?.sequence ?? 0
    guard result != state.lastDelivered else { return }
    resultSequence += 1
    result.sequence = resultSequence
    queries[key]!.lastDelivered = result
    for subscriber in state.subscribers.values { subscriber.yield(result) }
  }
}
