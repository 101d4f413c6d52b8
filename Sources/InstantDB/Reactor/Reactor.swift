import Clocks
import Foundation
import InstantCore
import Logging
import OrderedCollections

/// The one owner of a client's mutable state: the socket, the attrs, every query's server result,
/// the pending writes and their persistence. Everything a subscriber sees is derived from these.
actor Reactor {
  struct Configuration: Sendable {
    var appID: String
    var websocketURL: URL
    var transport: any WebSocketTransport
    var schema: ClientSchema?
    var cachedQueryLimit: Int
    /// What the client waits on: reconnect delays, the cache's save, the age of acknowledged writes.
    var clock: AnyClock<Duration>
    /// Wall time by the same clock (``WallTime``): a write's `created`, a cached result's last use.
    var now: @Sendable () -> Date
  }

  let config: Configuration
  /// How many writes may be pending before acknowledged ones that no query result has reflected
  /// for `age` are dropped (the reference client's 200 and 30 s; see `cleanUpConfirmedWrites`).
  var pendingCleanup = (threshold: 200, age: Duration.seconds(30))
  /// Test seams for subscription order.
  nonisolated let subscriptionHooks = QuerySubscriptionHooks()
  nonisolated let storage: ClientStorage
  let logger: Logger

  // MARK: Connection

  /// The socket's status, generation, session, back-off and network.
  var connectionState = ConnectionState()
  var status: ConnectionStatus { connectionState.status }
  var sessionID: String? { connectionState.sessionID }
  var lastError: InstantClientError? { connectionState.lastError }
  var socketGeneration: Int { connectionState.generation }
  var appStatus: AppStatus = .active
  /// The refresh token the current socket's `init` carried: its `init-ok` speaks for that user.
  var initRefreshToken: String?
  var connection: (any WebSocketConnection)?
  var connectionTask: Task<Void, Never>?
  var isShutDown: Bool { connectionState.isShutDown }
  var wakeup = Wakeup()
  var statusWatchers = Watchers<ConnectionStatus>()

  // MARK: Data

  /// The server's attrs (from `init-ok`/`refresh-ok`, plus those of acknowledged writes).
  var attrs: AttrStore
  var queries: QueryRegistry
  /// Pending writes in order, and how recent ones ended.
  var writes: WriteQueue
  var optimisticAttrsCache: AttrStore?
  /// The callers of `synced()` waiting for a write's end, by write id.
  var syncWaiters: [String: [UUID: CheckedContinuation<Result<Int, InstantClientError>, Never>]] = [:]
  var pendingWatchers = Watchers<[PendingWrite]>()
  var rejectionWatchers = Watchers<RejectedWrite>()
  /// Server results waiting to be saved for offline start, written at most once a second.
  var cacheSaves = CacheSaves()

  // MARK: Rooms and auth

  /// Every room some handle wants, by room id.
  var rooms = Rooms()
  /// The streams watching each room.
  var roomWatchers: [String: RoomWatchers] = [:]
  var auth = AuthSession()

  /// - Parameter saved: what `storage` held when it was opened.
  init(config: Configuration, storage: ClientStorage, saved: ClientStorage.Saved, logger: Logger) {
    self.config = config
    self.storage = storage
    self.logger = logger
    let linkIndex = config.schema?.linkIndex
    var attrs = AttrStore(linkIndex: linkIndex)
    if let json = saved.attrs {
      // Saved attrs that no longer parse are only a cache: the server sends them on `init-ok`.
      do { attrs = try AttrStore(json: json, linkIndex: linkIndex) } catch {
        logger.error("ignored saved attrs that do not parse: \(error)")
      }
    }
    self.attrs = attrs
    self.writes = WriteQueue(saved.mutations)
    self.queries = QueryRegistry(cache: saved.queries, cachedQueryLimit: config.cachedQueryLimit)
  }

  func start() {
    guard connectionTask == nil, !isShutDown else { return }
    connectionTask = Task { await self.runConnection() }
  }

  // MARK: Socket lifecycle

  private func runConnection() async {
    while !isShutDown {
      if !connectionState.isNetworkAvailable {
        await pause(nil)
        continue
      }
      publish(connectionState.attempting())
      var reached = false
      do {
        let socket = try await config.transport.connect(to: config.websocketURL)
        reached = true
        guard !isShutDown, connectionState.isNetworkAvailable else {
          await socket.close()
          continue
        }
        connection = socket
        publish(connectionState.opened())
        sendInit()
        for try await text in socket.messages {
          handleFrame(text)
        }
        logger.info("socket closed by the server")
      } catch {
        logger.info("socket closed: \(error)")
      }
      let delay = socketClosed()
      if !reached { roomsServerUnreachable() }
      if isShutDown { break }
      if delay > .zero { await pause(delay) }
    }
  }

  /// Returns the delay before the next attempt.
  private func socketClosed() -> Duration {
    connection = nil
    let (status, delay) = connectionState.closed()
    publish(status)
    writes.socketClosed()
    notifyPendingWatchers()
    roomsSocketClosed()
    return delay
  }

  /// Waits until `delay` passes (or forever when `nil`) or ``wake()`` is called.
  private func pause(_ delay: Duration?) async {
    let id = wakeup.nextID()
    await withCheckedContinuation { continuation in
      wakeup.wait(id, continuation)
      if let delay {
        Task {
          // Nothing cancels this task; if anything did, waking early only reconnects sooner.
          try? await self.config.clock.sleep(for: delay)
          self.wake(id)
        }
      }
    }
  }

  func wake(_ id: Int? = nil) {
    wakeup.take(id)?.resume()
  }

  func setNetworkAvailable(_ available: Bool) async {
    guard let change = connectionState.network(available, hasSocket: connection != nil) else { return }
    publish(change.publish)
    if change.wake {
      wake()
    } else if let connection {
      // Offline from now on, not once the socket has finished closing: a write made after this
      // returns waits in the queue instead of going out on a socket that is closing.
      self.connection = nil
      await connection.close()
    }
  }

  /// Drops the current socket (if any) and connects again at once.
  /// Sets ``pendingCleanup`` (a test seam).
  func setPendingCleanup(threshold: Int, age: Duration) {
    pendingCleanup = (threshold, age)
  }

  func reconnectNow() async {
    connectionState.reconnectRequested()
    if let connection {
      await connection.close()
    } else {
      wake()
    }
  }

  func shutdown() async {
    guard !isShutDown else { return }
    // Closed from here on: the socket's own close below changes nothing more.
    publish(connectionState.shutDown())
    wake()
    if let connection { await connection.close() }
    await connectionTask?.value
    // Read while the queries are still here; a save asleep below then finds nothing to write.
    let unsaved = takeCacheBatch()
    for subscriber in queries.removeAll() { subscriber.finish() }
    statusWatchers.finishAll()
    pendingWatchers.finishAll()
    rejectionWatchers.finishAll()
    finishRooms()
    auth.watchers.finishAll()
    for (_, waiters) in syncWaiters {
      waiters.values.forEach { $0.resume(returning: .failure(InstantClientError(.shutDown, "the client was shut down"))) }
    }
    syncWaiters = [:]
    cacheSaves.task?.cancel()  // skips its sleep: it finds the batch taken above, or ends a save under way
    await cacheSaves.task?.value
    saveCache(unsaved)
    storage.closeDatabase()
    storage.releaseLock()
  }

  // MARK: Sending

  func send(_ message: ClientMessage) {
    guard let connection else { return }
    let frame = message.frame
    if logger.logLevel <= .debug { logger.debug("→ \(Self.redacted(frame).serialized())") }
    connection.send(frame.serialized())
  }

  private func sendInit() {
    // A core version above 0.22.75 turns on the protocol's current features (skip-attrs,
    // patch-presence, batch-messages), all of which this client handles; sharing-instant 0.2.0
    // turns on instant-local's result changes (docs/protocol.md, "Result changes").
    let versions: JSON = ["@instantdb/core": "v1.0.65", "sharing-instant": "0.2.0"]
    initRefreshToken = refreshToken
    send(
      ClientMessage(
        clientEventID: InstantID.make(), .initialize(appID: config.appID, refreshToken: refreshToken, versions: versions)))
  }

  /// A frame with its secrets replaced, at any depth (a server error can echo a token), for debug logs.
  static func redacted(_ frame: JSON) -> JSON {
    switch frame {
    case var .object(o):
      for (key, value) in o {
        o[key] = ["refresh-token", "refresh_token", "__admin-token"].contains(key) ? "<redacted>" : redacted(value)
      }
      return .object(o)
    case let .array(a): return .array(a.map(redacted))
    default: return frame
    }
  }

  // MARK: Observation

  /// Tells the status watchers of a change ``ConnectionState`` reported.
  func publish(_ status: ConnectionStatus?) {
    if let status { statusWatchers.yield(status) }
  }

  var pendingWrites: [PendingWrite] { writes.pending.map(\.publicValue) }

  /// Opens a stream of status changes (starting with the current one).
  func watchStatus(_ id: UUID, _ continuation: AsyncStream<ConnectionStatus>.Continuation) {
    guard !isShutDown else { return continuation.finish() }
    statusWatchers.add(id, continuation)
    continuation.yield(status)
  }

  /// Opens a stream of the pending-write queue (starting with the current one).
  func watchPending(_ id: UUID, _ continuation: AsyncStream<[PendingWrite]>.Continuation) {
    guard !isShutDown else { return continuation.finish() }
    pendingWatchers.add(id, continuation)
    continuation.yield(pendingWrites)
  }

  /// Opens a stream of rejected writes.
  func watchRejections(_ id: UUID, _ continuation: AsyncStream<RejectedWrite>.Continuation) {
    guard !isShutDown else { return continuation.finish() }
    rejectionWatchers.add(id, continuation)
  }

  /// Closes the stream `id`, whichever kind it is.
  func unwatch(_ id: UUID) {
    statusWatchers.remove(id)
    pendingWatchers.remove(id)
    rejectionWatchers.remove(id)
  }

  func notifyPendingWatchers() {
    guard !pendingWatchers.isEmpty else { return }
    pendingWatchers.yield(pendingWrites)
  }
}
