import Foundation
import InstantCore
import OrderedCollections
import Logging

extension Reactor {
  // MARK: Subscribers

  func subscribe(_ q: JSON, id: UUID, _ continuation: AsyncStream<QueryResult>.Continuation) {
    guard !isShutDown else { return continuation.finish() }
    perform(queries.subscribe(q, id: id, continuation, isAuthenticated: status == .authenticated, queryContext))
  }

  /// What subscribers of `q` were last given, or nil when it has no subscriber or no answer yet.
  func currentResult(_ q: JSON) -> QueryResult? {
    queries[q.canonicalString]?.lastDelivered
  }

  func unsubscribe(_ q: JSON, id: UUID) {
    perform(queries.unsubscribe(q, id: id, isAuthenticated: status == .authenticated))
  }

  // MARK: Server results

  func receiveResult(for q: JSON, result: JSON, processedTxID: Int?) {
    perform(queries.receive(q, result: result, processedTxID: processedTxID, socket: socketGeneration, queryContext))
  }

  /// What changed in a result since the server last sent it (`result-changes`).
  func receiveChanges(for q: JSON, _ changes: ResultChanges, processedTxID: Int?) {
    perform(queries.receive(q, changes: changes, processedTxID: processedTxID, socket: socketGeneration, queryContext))
  }

  /// What the queries' stores are built from.
  var queryContext: QueryRegistry.Context {
    QueryRegistry.Context(attrs: attrs, cardinalityInference: config.schema != nil, pending: writes.pending)
  }

  /// Performs what ``QueryRegistry`` asked for.
  func perform(_ actions: [QueryRegistry.Action]) {
    for action in actions {
      switch action {
      case let .send(message): send(message)
      case let .deliver(key, result):
        for subscriber in queries[key]?.subscribers.values ?? [:].values { subscriber.yield(result) }
      case let .give(continuation, result): continuation.yield(result)
      case let .save(key): saveLater(key)
      case let .log(what): logger.error("\(what)")
      }
    }
  }

  // MARK: Cache

  /// Notes that a query's server result changed and saves the changed ones off the actor at most
  /// once a second (``CacheSaves``).
  func saveLater(_ key: String) {
    guard cacheSaves.note(key) else { return }
    cacheSaves.scheduled(
      Task.detached {
        // Cancelled (by shutdown or a sign-out) only cuts the wait short: the batch is saved or
        // dropped on purpose by the canceller, so no error is lost here.
        try? await self.config.clock.sleep(for: .seconds(1))
        await self.saveCache(self.takeCacheBatch())
      })
  }

  /// The results noted since the last save, as they are now.
  func takeCacheBatch() -> [String: ClientStorage.CachedQuery] {
    var batch: [String: ClientStorage.CachedQuery] = [:]
    for key in cacheSaves.take() { batch[key] = queries.cached(key) }
    return batch
  }

  nonisolated func saveCache(_ batch: [String: ClientStorage.CachedQuery]) {
    for (key, cached) in batch {
      do { try storage.saveQuery(key: key, cached, limit: config.cachedQueryLimit, usedAt: config.now()) } catch {
        logger.error("could not save a query result: \(error)")
      }
    }
  }
}
