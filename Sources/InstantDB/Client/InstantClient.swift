import Clocks
public import Foundation
public import InstantCore
public import Logging

/// A connection to one InstantDB app: live queries, optimistic writes that survive going offline
/// and restarting, and the connection's state.
///
/// ```swift
/// let db = InstantClient(appId: "…")
/// for await result in db.subscribe(["todos": [:]]) { print(result.data) }
/// let write = try await db.transact([.update("todos", .id(InstantID.make()), ["title": "Run"])])
/// try await write.synced()
/// ```
///
/// Every client owns its own state (socket, caches, queue); two clients in one process share
/// nothing. Server addresses are ordinary configuration: hosted InstantDB, a self-hosted server,
/// or `instant-local`.
public final class InstantClient: Sendable {
  /// The app's id, sent with every connection.
  public let appId: String
  /// The HTTP base (auth, storage).
  public let apiURI: URL
  /// The WebSocket endpoint (`…/runtime/session`); `?app_id=` is appended.
  public let websocketURI: URL
  /// Set when the local database could not be used as configured (see ``StorageProblem``).
  public let storageProblem: StorageProblem?

  let reactor: Reactor
  /// How HTTP requests (sign-in, `$files`) are sent.
  let http: any HTTPTransport
  /// Where the signed-in user is kept (next to the database).
  let userFile: UserFile
  /// Where the client logs (the `logger` it was made with); the `@Shared` keys over it log here too.
  package let logger: Logger
  /// The entities this client's writes named lately.

  /// A client for the app `appId`. It reads its local database at once and connects in the
  /// background; nothing waits for the network.
  ///
  /// - Parameters:
  ///   - appId: the app's id.
  ///   - apiURI: the HTTP base; hosted InstantDB by default.
  ///   - websocketURI: the WebSocket endpoint; hosted InstantDB by default.
  ///   - storage: where pending writes and cached results live; a SQLite file per app by default
  ///     (``InstantStorage/defaultFile(appId:)``), `.memory` for tests and previews.
  ///   - schema: the app's schema, for attrs created with the right types and `has: one` links
  ///     returned as objects.
  ///   - transport: how sockets are opened; SwiftNIO by default.
  ///   - http: how HTTP requests (sign-in, `$files`) are sent; `URLSession` by default,
  ///     ``NIOHTTPTransport`` to trust certificates of your own.
  ///   - cachedQueryLimit: how many recent query results are kept for offline start (default 10).
  ///   - clock: what the client waits on — reconnect delays, ``queryOnce(_:timeout:)``'s timeout,
  ///     the cache's save — and stamps by (a write's `created`), so that a test can pass a
  ///     `TestClock` (swift-clocks) and advance it.
  ///   - logger: where the client logs; by default `instantdb` at the level of
  ///     `INSTANTDB_LOG_LEVEL` (see `docs/client.md`).
  public init(
    appId: String,
    apiURI: URL = URL(string: "https://api.instantdb.com")!,
    websocketURI: URL = URL(string: "wss://api.instantdb.com/runtime/session")!,
    storage: InstantStorage? = nil,
    schema: ClientSchema? = nil,
    transport: any WebSocketTransport = NIOWebSocketTransport(),
    http: any HTTPTransport = URLSessionHTTPTransport(),
    cachedQueryLimit: Int = 10,
    clock: any Clock<Duration> = ContinuousClock(),
    logger: Logger? = nil
  ) {
    self.appId = appId
    self.apiURI = apiURI
    self.websocketURI = websocketURI
    self.http = http
    let logger = logger ?? ClientLog.make()
    self.logger = logger
    let (store, saved) = ClientStorage.make(storage ?? .defaultFile(appId: appId))
    if let problem = store.problem { logger.error("\(problem)") }
    let userFile = UserFile(storage: storage ?? .defaultFile(appId: appId), problem: store.problem)
    self.userFile = userFile
    storageProblem = store.problem
    var components = URLComponents(url: websocketURI, resolvingAgainstBaseURL: false)
    let query = components?.queryItems ?? []
    components?.queryItems = query + [URLQueryItem(name: "app_id", value: appId)]
    reactor = Reactor(
      config: .init(
        appID: appId, websocketURL: components?.url ?? websocketURI, transport: transport, schema: schema,
        cachedQueryLimit: max(0, cachedQueryLimit), clock: AnyClock(clock), now: WallTime.reading(clock)),
      storage: store, saved: saved, logger: logger)
    let reactor = self.reactor
    Task {
      await reactor.loadUser(from: userFile)
      await reactor.start()
    }
  }

  deinit {
    let reactor = self.reactor
    Task { await reactor.shutdown() }
  }

  // MARK: Queries

  /// A live query: the cached answer first (if this device has one), then every change, from the
  /// server or from this device's own writes. One `add-query` is sent per distinct query however
  /// many subscribers it has; the last subscriber to stop sends `remove-query`.
  public func subscribe(_ query: JSON) -> QuerySubscription {
    QuerySubscription(query: query, reactor: reactor)
  }

  /// The answer subscribers of `query` were last given (with pending writes applied), without
  /// waiting for anything: nil when nobody is subscribed to `query` or it has no answer yet. Its
  /// ``QueryResult/sequence`` orders it against the answers a subscription delivers.
  public func currentResult(_ query: JSON) async -> QueryResult? {
    await reactor.currentResult(query)
  }

  /// The server's current answer to `query`. Throws ``InstantClientError/Kind/offline`` when not
  /// connected, ``InstantClientError/Kind/timedOut`` after `timeout`, the server's refusal
  /// (``InstantClientError/Kind/queryRejected``), and ``InstantClientError/Kind/cancelled`` when
  /// the calling task is cancelled first.
  public func queryOnce(
    _ query: JSON, timeout: Duration = .seconds(30)
  ) async throws(InstantClientError) -> QueryResult {
    guard await reactor.status == .authenticated else {
      throw InstantClientError(.offline, "queryOnce needs a connection to the server")
    }
    let outcome = await withTaskGroup(of: Result<QueryResult, InstantClientError>.self) { group in
      group.addTask {
        for await result in self.subscribe(query) where !result.isFromCache || result.error != nil {
          if let error = result.error { return .failure(error) }
          return .success(result)
        }
        // The stream ends when the client shuts down, or early when this task is cancelled.
        if Task.isCancelled { return .failure(InstantClientError(.cancelled, "queryOnce was cancelled")) }
        return .failure(InstantClientError(.shutDown, "the client was shut down"))
      }
      group.addTask {
        do {
          try await self.reactor.config.clock.sleep(for: timeout)
          return .failure(InstantClientError(.timedOut, "no answer from the server within \(timeout)"))
        } catch {
          return .failure(InstantClientError(.cancelled, "queryOnce was cancelled", underlying: error))
        }
      }
      defer { group.cancelAll() }
      // Both tasks always give an outcome, so the first one is the answer.
      return await group.next() ?? .failure(InstantClientError(.cancelled, "queryOnce was cancelled"))
    }
    return try outcome.get()
  }

  // MARK: Writes

  /// Applies `ops` as one transaction. Returns once the write is saved on this device (it is
  /// already visible to every local query); ``WriteReceipt/synced()`` waits for the server.
  /// Throws at once when the ops are invalid, the app is read-only, or the write cannot be saved.
  /// Throws ``InstantClientError/Kind/invalidOps`` (``InstantClientError/underlying`` is the
  /// `InstaMLError`), ``InstantClientError/Kind/appReadOnly`` or ``InstantClientError/Kind/appDisabled``,
  /// ``InstantClientError/Kind/storage`` (``InstantClientError/underlying`` is the database's error),
  /// or ``InstantClientError/Kind/shutDown``.
  @discardableResult
  public func transact(_ ops: [InstaMLOp]) async throws(InstantClientError) -> WriteReceipt {
    let id = try await reactor.transact(ops)
    return WriteReceipt(id: id, reactor: reactor)
  }

  /// Applies one operation as a transaction; see ``transact(_:)-([InstaMLOp])``.
  @discardableResult
  public func transact(_ op: InstaMLOp) async throws(InstantClientError) -> WriteReceipt {
    try await transact([op])
  }

  /// Writes not yet folded into every query, oldest first.
  public var pendingWrites: [PendingWrite] {
    get async { await reactor.pendingWrites }
  }

  /// ``pendingWrites`` now and after every change.
  public func pendingWriteUpdates() -> AsyncStream<[PendingWrite]> {
    updates { reactor, id, continuation in await reactor.watchPending(id, continuation) }
  }

  /// Every write the server refuses from now on (each already rolled back locally), for writes
  /// nobody awaits with ``WriteReceipt/synced()``: show the user what did not save.
  public func rejectedWrites() -> AsyncStream<RejectedWrite> {
    updates { reactor, id, continuation in await reactor.watchRejections(id, continuation) }
  }

  // MARK: Connection

  /// Where the connection is now.
  public var status: ConnectionStatus {
    get async { await reactor.status }
  }

  /// ``status`` now and after every change.
  public func statusUpdates() -> AsyncStream<ConnectionStatus> {
    updates { reactor, id, continuation in await reactor.watchStatus(id, continuation) }
  }

  /// A stream the reactor feeds through `open`, closed on its side when the caller stops reading.
  private func updates<Value: Sendable>(
    _ open: @escaping @Sendable (Reactor, UUID, AsyncStream<Value>.Continuation) async -> Void
  ) -> AsyncStream<Value> {
    let reactor = self.reactor
    let id = UUID()
    return AsyncStream { continuation in
      continuation.onTermination = { _ in Task { await reactor.unwatch(id) } }
      Task { await open(reactor, id, continuation) }
    }
  }

  /// The app's status as the server last reported it; ``AppStatus/active`` until it says otherwise.
  public var appStatus: AppStatus {
    get async { await reactor.appStatus }
  }

  /// The server's `init` refusal, if the status is ``ConnectionStatus/errored``.
  public var lastError: InstantClientError? {
    get async { await reactor.lastError }
  }

  /// Tell the client whether the network is reachable (from `NWPathMonitor`, say). While it is
  /// not, the client stays offline and keeps writes queued; when it is again, it reconnects at once.
  public func setNetworkAvailable(_ available: Bool) async {
    await reactor.setNetworkAvailable(available)
  }

  /// Drops the socket, if any, and connects again without waiting for the back-off.
  public func reconnectNow() async {
    await reactor.reconnectNow()
  }

  /// Closes the socket, ends every subscription and releases the local database. Pending writes
  /// stay saved for the next client on the same storage.
  public func shutdown() async {
    await reactor.shutdown()
  }
}

/// A write saved on this device.
public struct WriteReceipt: Sendable, Hashable {
  /// The write's `client-event-id`.
  public let id: String
  let reactor: Reactor

  /// Waits until the server acknowledges the write and returns its transaction id; throws the
  /// server's error (``InstantClientError/Kind/transactionRejected``) if it refused it, in which
  /// case the write has been rolled back locally. Offline, this waits for the next connection.
  /// Cancelling the waiting task ends the wait with ``InstantClientError/Kind/cancelled``; the
  /// write stays pending and is still sent.
  @discardableResult
  public func synced() async throws(InstantClientError) -> Int {
    try await reactor.synced(id)
  }

  public static func == (a: Self, b: Self) -> Bool { a.id == b.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The answers to a live query, as an `AsyncSequence`. Iterating subscribes; ending the
/// iteration (or dropping the iterator) unsubscribes.
public struct QuerySubscription: AsyncSequence, Sendable {
  public typealias Element = QueryResult
  public let query: JSON
  let reactor: Reactor

  public func makeAsyncIterator() -> AsyncStream<QueryResult>.Iterator {
    let reactor = self.reactor
    let query = self.query
    let id = UUID()
    let stream = AsyncStream<QueryResult>(bufferingPolicy: .bufferingNewest(64)) { continuation in
      // The unsubscribe waits for the subscribe: two unordered tasks let a short-lived iteration
      // unsubscribe first and leave the query live for good.
      let hooks = reactor.subscriptionHooks
      let subscribed = Task {
        await hooks.beforeSubscribe?()
        await reactor.subscribe(query, id: id, continuation)
        hooks.subscribeFinished()
      }
      continuation.onTermination = { _ in
        Task {
          await subscribed.value
          hooks.beforeUnsubscribe?()
          await reactor.unsubscribe(query, id: id)
          hooks.unsubscribeFinished()
        }
      }
    }
    return stream.makeAsyncIterator()
  }
}
