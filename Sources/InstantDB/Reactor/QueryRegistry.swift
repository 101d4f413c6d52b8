import Foundation
import InstantCore
import OrderedCollections

/// Every distinct query this client runs (by canonical JSON), as a value the reactor owns: each
/// event — a subscriber, a server result or refusal, a write queued, withdrawn or finished, new
/// attrs — changes the queries and returns the actions to perform. Answers are computed here with
/// InstantCore, the engine the server runs; sending, yielding to subscribers and saving are the
/// reactor's, so every rule here is testable without a socket (`QueryRegistryTests`).
struct QueryRegistry {
  enum Action {
    /// Send this message (`add-query`, `remove-query`).
    case send(ClientMessage)
    /// A new answer for every subscriber of the query `key`.
    case deliver(key: String, QueryResult)
    /// The answer one new subscriber starts from.
    case give(AsyncStream<QueryResult>.Continuation, QueryResult)
    /// The server's result of `key` changed: save it for an offline start (batched by the reactor,
    /// which reads it with ``cached(_:)`` when it saves, so a result kept current by changes is
    /// not copied per change).
    case save(key: String)
    /// Something that did not apply; log it.
    case log(String)
  }

  /// What the stores are built from: the server's attrs and this device's pending writes.
  struct Context {
    var attrs: AttrStore
    var cardinalityInference: Bool
    var pending: [PendingMutation]
  }

  /// The live queries, in the order they were made (an unsubscribed one made again goes last).
  private(set) var byKey: OrderedDictionary<String, QueryState> = [:]
  /// Server results kept for a later subscriber, at most `cachedQueryLimit`.
  private var cache: [String: ClientStorage.CachedQuery]
  private let cachedQueryLimit: Int
  /// The number of the newest answer given to any subscriber (``QueryResult/sequence``).
  private var resultSequence = 0

  init(cache: [String: ClientStorage.CachedQuery], cachedQueryLimit: Int) {
    self.cache = cache
    self.cachedQueryLimit = cachedQueryLimit
  }

  subscript(key: String) -> QueryState? { byKey[key] }

  /// The server's result of `key` as the cache keeps it: the live query's, or the one kept after
  /// its last subscriber left.
  func cached(_ key: String) -> ClientStorage.CachedQuery? { byKey[key]?.cached ?? cache[key] }

  /// The stores with pending writes applied, for InstaML's view of what this device has seen.
  var overlays: [TripleStore] { byKey.values.compactMap(\.overlay) }

  /// The lowest transaction every query's result reflects (`Int.max` with no result).
  var reflectedTxID: Int { byKey.values.filter(\.hasResult).map { $0.processedTxID ?? 0 }.min() ?? Int.max }

  /// After `init-ok`: `add-query` again for every live query, with its original event id, in the
  /// order they were made.
  var resubscriptions: [ClientMessage] {
    byKey.values.filter { !$0.subscribers.isEmpty }.map { ClientMessage(clientEventID: $0.eventID, .addQuery(q: $0.q)) }
  }

  // MARK: Subscribers

  mutating func subscribe(
    _ q: JSON, id: UUID, _ continuation: AsyncStream<QueryResult>.Continuation, isAuthenticated: Bool, _ context: Context
  ) -> [Action] {
    let key = q.canonicalString
    var actions: [Action] = []
    if byKey[key] == nil {
      var state = QueryState(q: q)
      if let cached = cache[key] {
        state.pageInfo = cached.pageInfo
        state.processedTxID = cached.processedTxID
        (state.base, state.unindexed) = Self.store(cached.triples, context, &actions)
      }
      byKey[key] = state
      actions += rebuildOverlay(key, context)
      if isAuthenticated { actions.append(.send(ClientMessage(clientEventID: state.eventID, .addQuery(q: q)))) }
    }
    byKey[key]?.subscribers[id] = continuation
    if let last = byKey[key]?.lastDelivered {
      actions.append(.give(continuation, last))
    } else {
      actions += deliver(key)
    }
    return actions
  }

  /// The last subscriber of a query sends `remove-query`; its result is kept for a later one.
  mutating func unsubscribe(_ q: JSON, id: UUID, isAuthenticated: Bool) -> [Action] {
    let key = q.canonicalString
    guard var state = byKey[key] else { return [] }
    state.subscribers[id] = nil
    guard state.subscribers.isEmpty else {
      byKey[key] = state
      return []
    }
    byKey[key] = nil
    if let cached = state.cached { remember(key, cached) }
    return isAuthenticated ? [.send(ClientMessage(clientEventID: InstantID.make(), .removeQuery(q: q)))] : []
  }

  private mutating func remember(_ key: String, _ cached: ClientStorage.CachedQuery) {
    cache[key] = cached
    while cache.count > cachedQueryLimit, let victim = cache.keys.first(where: { $0 != key }) {
      cache[victim] = nil
    }
  }

  // MARK: The server

  /// A result (`add-query-ok` or a `refresh-ok` computation) that came on socket `socket`.
  mutating func receive(_ q: JSON, result: JSON, processedTxID: Int?, socket: Int, _ context: Context) -> [Action] {
    let key = q.canonicalString
    guard var state = byKey[key] else { return [] }
    // On one socket the server's results only move forward: an older one is a replay.
    if state.resultSocket == socket, let current = state.processedTxID, let processedTxID, processedTxID < current {
      return [.log("skipped a result for tx \(processedTxID), older than the one shown (\(current))")]
    }
    var actions: [Action] = []
    let triples = ServerQueryResult.triples(in: result)
    state.pageInfo = ServerQueryResult.pageInfo(in: result)
    state.processedTxID = processedTxID
    state.resultSocket = socket
    state.isFresh = true
    state.error = nil
    state.touched = nil
    (state.base, state.unindexed) = Self.store(triples, context, &actions)
    byKey[key] = state
    actions += rebuildOverlay(key, context)
    actions += deliver(key)
    actions.append(.save(key: key))
    return actions
  }

  /// What changed in a result since the server last sent it (`instaql-result-changes`), on socket
  /// `socket`: applied to the server's store in place, so a change costs what it changes there.
  ///
  /// Changes are taken against the result this session was sent last, so they apply only to a
  /// result that came on the same socket. A result that, changed, does not hold the number of
  /// triples the server counts has lost step: the query is asked for again (`remove-query`, then
  /// `add-query`), and changes are skipped until its whole result comes.
  mutating func receive(
    _ q: JSON, changes: ResultChanges, processedTxID: Int?, socket: Int, _ context: Context
  ) -> [Action] {
    let key = q.canonicalString
    guard var state = byKey.removeValue(forKey: key) else { return [] }
    guard state.resultSocket == socket, var base = state.base else {
      byKey[key] = state
      return [.log("skipped changes to a result this socket has not sent whole")]
    }
    // The only reference to the store, so it changes in place (the overlay shares it otherwise).
    (state.base, state.overlay) = (nil, nil)
    let (unindexed, absent) = base.apply(changes)
    var missing = 0
    for triple in absent {
      if let i = state.unindexed.firstIndex(of: triple) { state.unindexed.remove(at: i) } else { missing += 1 }
    }
    state.unindexed += unindexed
    state.base = base
    state.touched?.formUnion(changes.removed.lazy.map(\.entity))
    state.touched?.formUnion(changes.added.lazy.map(\.entity))
    state.pageInfo = changes.pageInfo
    state.processedTxID = processedTxID
    state.isFresh = true
    state.error = nil
    var actions: [Action] = []
    if missing > 0 || base.count + state.unindexed.count != changes.count {
      actions.append(.log("a result lost step with the server (\(base.count + state.unindexed.count) triples, the server counts \(changes.count)); asking for it again"))
      state.resultSocket = nil
      actions.append(.send(ClientMessage(clientEventID: InstantID.make(), .removeQuery(q: state.q))))
      actions.append(.send(ClientMessage(clientEventID: state.eventID, .addQuery(q: state.q))))
    }
    byKey[key] = state
    actions += rebuildOverlay(key, context)
    actions += deliver(key)
    actions.append(.save(key: key))
    return actions
  }

  /// The server refused the query.
  mutating func refused(_ q: JSON, _ error: InstantClientError) -> [Action] {
    let key = q.canonicalString
    guard byKey[key] != nil else { return [] }
    byKey[key]?.error = error
    return deliver(key)
  }

  /// New attrs from the server: every store is rebuilt with them.
  mutating func attrsChanged(_ context: Context) -> [Action] {
    var actions: [Action] = []
    for key in byKey.keys.sorted() {
      if let triples = byKey[key]?.serverTriples {
        let (base, unindexed) = Self.store(triples, context, &actions)
        byKey[key]?.base = base
        byKey[key]?.unindexed = unindexed
      }
      byKey[key]?.touched = nil
      actions += rebuildOverlay(key, context)
      actions += deliver(key)
    }
    return actions
  }

  /// The signed-in user changed: every server result is forgotten (subscribers keep what they
  /// last got until the new user's results arrive), in memory and in the cache.
  mutating func forgetResults() {
    for key in byKey.keys {
      byKey[key]?.unindexed = []
      byKey[key]?.pageInfo = nil
      byKey[key]?.processedTxID = nil
      byKey[key]?.isFresh = false
      byKey[key]?.base = nil
      byKey[key]?.overlay = nil
      byKey[key]?.live = nil
      byKey[key]?.touched = nil
    }
    cache = [:]
  }

  /// Shutdown: the subscribers to finish.
  mutating func removeAll() -> [AsyncStream<QueryResult>.Continuation] {
    defer { byKey = [:] }
    return byKey.values.flatMap(\.subscribers.values)
  }

  // MARK: This device's writes

  /// A write just queued, shown at once: applied on top of every overlay (it comes after every
  /// pending write, so in place is in order).
  mutating func apply(_ m: PendingMutation) -> [Action] {
    var actions: [Action] = []
    for key in byKey.keys.sorted() {
      guard byKey[key]?.overlay != nil else { continue }
      do {
        byKey[key]?.overlay?.trackTouched()
        try byKey[key]?.overlay?.transact(m.steps)
        byKey[key]?.overlaid.append(m.id)
        let touched = byKey[key]?.overlay?.takeTouched()
        let (before, overlayBefore) = (byKey[key]?.touched, byKey[key]?.overlayTouched)
        byKey[key]?.touched = Self.union(before, touched)
        byKey[key]?.overlayTouched = Self.union(overlayBefore, touched)
      } catch {
        byKey[key]?.touched = nil
        actions.append(.log("a write could not be applied locally: \(error)"))
      }
      actions += deliver(key)
    }
    return actions
  }

  /// Writes withdrawn (refused, or not saved): the queries that showed them are rebuilt without.
  mutating func withdraw(_ ids: Set<String>?, _ context: Context) -> [Action] {
    var actions: [Action] = []
    for key in byKey.keys.sorted() where ids.map({ !$0.isDisjoint(with: byKey[key]?.overlaid ?? []) }) ?? true {
      actions += rebuildOverlay(key, context)
      actions += deliver(key)
    }
    return actions
  }

  /// Writes every result now reflects: no longer counted as overlaid.
  mutating func forgetWrites(_ ids: Set<String>) {
    for key in byKey.keys where !ids.isDisjoint(with: byKey[key]?.overlaid ?? []) {
      byKey[key]?.overlaid.removeAll { ids.contains($0) }
    }
  }

  // MARK: Stores and answers

  /// The server's store of `rows`, and the triples among them whose attr it does not know.
  private static func store(_ rows: [JSON], _ context: Context, _ actions: inout [Action]) -> (TripleStore, [Triple]) {
    var triples: [Triple] = []
    triples.reserveCapacity(rows.count)
    var bad = 0
    for row in rows {
      if let triple = Triple(json: row) { triples.append(triple) } else { bad += 1 }
    }
    if bad > 0 { actions.append(.log("skipped \(bad) malformed triples in a server result")) }
    return store(triples, context, &actions)
  }

  private static func store(_ triples: [Triple], _ context: Context, _ actions: inout [Action]) -> (TripleStore, [Triple]) {
    let unindexed = triples.filter { context.attrs[$0.attr] == nil }
    return (TripleStore(attrs: context.attrs, triples: triples, cardinalityInference: context.cardinalityInference), unindexed)
  }

  /// The server's store with every pending write that it does not reflect yet applied, in order.
  /// The writes are applied in place on one copy of the server's store (a backlog of n writes
  /// costs one copy, not n); a write that fails is logged and left out, and the rest re-applied.
  private mutating func rebuildOverlay(_ key: String, _ context: Context) -> [Action] {
    guard let state = byKey[key], let base = state.base else { return [] }
    var actions: [Action] = []
    var failed: Set<String> = []
    rebuild: while true {
      var store = base
      store.trackTouched()
      var applied: [String] = []
      for m in context.pending where m.applies(over: state.processedTxID) && !failed.contains(m.id) {
        do {
          try store.transact(m.steps, atomically: false)
          applied.append(m.id)
        } catch {
          actions.append(.log("a pending write could not be applied locally: \(error)"))
          failed.insert(m.id)
          continue rebuild
        }
      }
      // The entities the writes touch now, and those they touched in the overlay this replaces.
      let touched = store.takeTouched()
      byKey[key]?.touched = Self.union(Self.union(state.touched, state.overlayTouched), touched)
      byKey[key]?.overlayTouched = touched
      byKey[key]?.overlay = store
      byKey[key]?.overlaid = applied
      return actions
    }
  }

  /// `nil` when either is (not known).
  private static func union(_ a: Set<String>?, _ b: Set<String>?) -> Set<String>? {
    guard let a, let b else { return nil }
    return a.union(b)
  }

  /// Evaluates the query with InstantCore: its new answer, if its subscribers have not had it.
  /// An entity-local query's answer is kept row by row (``LiveRows``) while the entities changed
  /// since are known; otherwise, or when its rows cannot be placed that way, it is evaluated whole.
  private mutating func deliver(_ key: String) -> [Action] {
    guard var state = byKey[key], !state.subscribers.isEmpty else { return [] }
    var result: QueryResult
    // Whether the rows changed, when the kept rows know it.
    var rowsChanged: Bool? = nil
    if let store = state.overlay {
      byKey[key]?.touched = []
      // Taken out of both copies of the state, so its rows change in place; put back below.
      var live = state.live.take()
      byKey[key]?.live = nil
      if state.pageInfo == nil, let touched = state.touched, let changed = live?.update(touched, in: store) {
        rowsChanged = changed
      } else {
        live = nil
      }
      defer { byKey[key]?.live = live }
      do {
        let data: JSON
        var pageInfo: JSON? = nil
        if let live {
          data = live.data
        } else {
          let answer = try store.query(state.q, pageInfo: state.pageInfo)
          (data, pageInfo) = (answer.data, answer.pageInfo)
          if state.pageInfo == nil { live = LiveRows(state.q, answer: answer, store: store) }
        }
        result = QueryResult(
          data: data, pageInfo: pageInfo, isFromCache: !state.isFresh, error: state.error,
          hasPendingWrites: !state.overlaid.isEmpty)
      } catch {
        result = QueryResult(
          data: state.lastDelivered?.data ?? .object([:]), isFromCache: !state.isFresh,
          error: InstantClientError(.invalidQuery, "\(error)", underlying: error), hasPendingWrites: false)
      }
    } else if let error = state.error {
      result = QueryResult(data: .object([:]), isFromCache: false, error: error, hasPendingWrites: false)
    } else {
      return []
    }
    // The same answer again is not news; a new one is numbered after every earlier one.
    result.sequence = state.lastDelivered?.sequence ?? 0
    guard rowsChanged == true || result != state.lastDelivered else { return [] }
    resultSequence += 1
    result.sequence = resultSequence
    byKey[key]?.lastDelivered = result
    return [.deliver(key: key, result)]
  }
}
