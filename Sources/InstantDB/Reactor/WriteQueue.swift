import Clocks
import InstantCore

/// This client's writes that the server has not finished with, in order, and how recent ones
/// ended: a state machine the reactor owns. Each event says what changed; the reactor does the
/// rest (the file, the queries' overlays, the callers waiting in `synced()`), so every rule here
/// is testable without a socket or a database (`WriteQueueTests`).
struct WriteQueue {
  /// Pending writes, oldest first.
  private(set) var pending: [PendingMutation]
  /// How finished writes ended, for `synced()` calls that come late: the newest ``keptOutcomes``.
  private var outcomes: [String: Result<Int, InstantClientError>] = [:]
  private var outcomeOrder: [String] = []
  /// How often each write was retried after an attribute race (its own, or one before it).
  private var attrConflictRetries: [String: Int] = [:]
  /// A write sent on this socket was refused for an attribute race and goes again, rewritten,
  /// on the next: the writes sent after it reached the server without it.
  private var racedOnThisSocket = false

  static let keptOutcomes = 1_000
  static let attrConflictRetryLimit = 3

  init(_ saved: [PendingMutation]) { pending = saved }

  /// The order of the next write: after every pending one.
  var nextOrder: Int { (pending.last?.order ?? 0) + 1 }

  mutating func append(_ m: PendingMutation) { pending.append(m) }

  // MARK: Answers

  enum Status: Equatable {
    case finished(Result<Int, InstantClientError>)
    /// Acknowledged, still overlaid until every query reflects it.
    case acknowledged(txID: Int)
    case waiting
    case unknown
  }

  /// What `synced()` can answer for write `id` now.
  func status(of id: String) -> Status {
    if let outcome = outcomes[id] { return .finished(outcome) }
    // From the newest: a receipt is usually awaited right after its write was queued, and a
    // scan from the front would make each wait cost the whole offline backlog.
    guard let m = pending.last(where: { $0.id == id }) else { return .unknown }
    return m.txID.map { .acknowledged(txID: $0) } ?? .waiting
  }

  /// Records how write `id` ended (its outcome is kept for late `synced()` calls).
  mutating func finish(_ id: String, _ outcome: Result<Int, InstantClientError>) {
    outcomes[id] = outcome
    attrConflictRetries[id] = nil
    outcomeOrder.append(id)
    if outcomeOrder.count > Self.keptOutcomes { outcomes[outcomeOrder.removeFirst()] = nil }
  }

  // MARK: The socket

  /// After `init-ok`: the frames that send every unacknowledged write again, in order, and the ids
  /// of those never sent before (to record as sent). A write that may have reached the server
  /// goes without its `create` modes and without the steps later writes undo (``MootSteps``).
  mutating func resend(knownAttrs: AttrStore) -> (frames: [ClientMessage], firstSent: [String]) {
    var moot = MootSteps()
    var frames: [Int: ClientMessage] = [:]
    for i in pending.indices.reversed() {
      if pending[i].txID == nil {
        if pending[i].wasSent {
          frames[i] = pending[i].frame(resend: true, steps: moot.filter(pending[i].steps, attrs: knownAttrs))
        } else {
          frames[i] = pending[i].frame(resend: false)
          moot.keepEntities(namedBy: pending[i].steps)
        }
      }
      moot.absorb(pending[i].steps)
    }
    var firstSent: [String] = []
    var ordered: [ClientMessage] = []
    for i in pending.indices {
      guard let frame = frames[i] else { continue }
      if !pending[i].wasSent { firstSent.append(pending[i].id) }
      ordered.append(frame)
      pending[i].sentOnThisSocket = true
      pending[i].wasSent = true
    }
    return (ordered, firstSent)
  }

  mutating func markSent(_ id: String) {
    guard let i = pending.lastIndex(where: { $0.id == id }) else { return }
    pending[i].sentOnThisSocket = true
    pending[i].wasSent = true
  }

  mutating func socketClosed() {
    for i in pending.indices { pending[i].sentOnThisSocket = false }
    racedOnThisSocket = false
  }

  // MARK: The server's answers

  /// `transact-ok`: the write `id` is in the server's log as `txID`; nil if it is not pending.
  mutating func acknowledge(_ id: String, txID: Int, at now: AnyClock<Duration>.Instant) -> PendingMutation? {
    guard let i = pending.firstIndex(where: { $0.id == id }) else { return nil }
    pending[i].txID = txID
    pending[i].confirmed = now
    return pending[i]
  }

  enum Refusal: Equatable {
    /// No pending write has that id (a query's or a room's error).
    case notAWrite
    /// A timeout or a fault: the write may or may not have committed, so it stays and is sent
    /// again on the next connection rather than lost.
    case keepPending
    /// Another client created one of its attrs first, under another id: it is fine once its attr
    /// ids are the server's, which reconnecting brings (`init-ok`, then ``rewrite(against:)``).
    case retryWithServerAttrs
    /// Refused after a write before it on this socket raced (``retryWithServerAttrs``): it may
    /// depend on that write (an update of the entity it creates), so it stays, and is sent again
    /// after it on the next connection.
    case retryAfterRace
    /// Refused for good: removed from the queue.
    case rejected(PendingMutation)
  }

  /// The server's `error` for write `id`.
  mutating func refuse(_ id: String, _ error: ServerError) -> Refusal {
    guard let i = pending.firstIndex(where: { $0.id == id }) else { return .notAWrite }
    if error.isFault {
      pending[i].sentOnThisSocket = false
      return .keepPending
    }
    // An attr id that exists with other properties is not that race: rewriting to the server's ids
    // cannot fix it, so only the race (``ServerError/isAttrConflict``) is retried, a few times.
    if error.isAttrConflict, attrConflictRetries[id, default: 0] < Self.attrConflictRetryLimit {
      attrConflictRetries[id, default: 0] += 1
      pending[i].sentOnThisSocket = false
      racedOnThisSocket = true
      return .retryWithServerAttrs
    }
    // The server answers a socket's writes in order, so this one came after the write that raced.
    if racedOnThisSocket, attrConflictRetries[id, default: 0] < Self.attrConflictRetryLimit {
      attrConflictRetries[id, default: 0] += 1
      pending[i].sentOnThisSocket = false
      return .retryAfterRace
    }
    return .rejected(pending.remove(at: i))
  }

  /// The server's attrs arrived: pending writes that invented attrs it has under other ids are
  /// rewritten to its ids. Returns the writes that changed.
  mutating func rewrite(against attrs: AttrStore) -> [PendingMutation] {
    AttrRewriter.rewrite(&pending, against: attrs).map { pending[$0] }
  }

  // MARK: Leaving the queue

  /// Drops acknowledged writes that every query's result reflects (those up to `floor`, the
  /// lowest tx-id the queries' results reflect) and, once `threshold` writes are pending, those
  /// acknowledged `age` or more before `now`, as the reference client does. Returns their ids.
  mutating func dropFinished(
    floor: Int, now: AnyClock<Duration>.Instant, threshold: Int, age: Duration
  ) -> Set<String> {
    var ids = Set(pending.filter { m in m.txID.map { $0 <= floor } ?? false }.map(\.id))
    if pending.count >= threshold {
      for m in pending where m.confirmed.map({ $0.advanced(by: age) <= now }) ?? false { ids.insert(m.id) }
    }
    if !ids.isEmpty { pending.removeAll { ids.contains($0.id) } }
    return ids
  }

  /// Empties the queue (the signed-in user changed): the ids of the acknowledged writes and of
  /// the others, which never will be.
  mutating func removeAll() -> (acknowledged: [String], unacknowledged: [String]) {
    defer { pending = [] }
    return (pending.filter { $0.txID != nil }.map(\.id), pending.filter { $0.txID == nil }.map(\.id))
  }
}

// MARK: - The queue's element

/// A write on its way to the server: stored until every query has seen it.
struct PendingMutation: Sendable, Equatable {
  /// The `client-event-id` it is sent with, every time.
  let id: String
  /// 1 + the highest order of the writes pending when it was made.
  let order: Int
  /// Epoch milliseconds.
  let created: Double
  var steps: [JSON]
  /// Set by `transact-ok`.
  var txID: Int?
  /// When `transact-ok` arrived on this run of the client (not stored: a write acknowledged
  /// before a restart waits for the queries' results, which reconnecting brings).
  var confirmed: AnyClock<Duration>.Instant?
  /// Whether it was sent on the current socket (reset on every reconnect).
  var sentOnThisSocket = false
  /// Whether it was ever sent (saved): then the server may have committed it even though no
  /// `transact-ok` arrived.
  var wasSent: Bool

  init(id: String, order: Int, created: Double, steps: [JSON], txID: Int? = nil, wasSent: Bool = false) {
    self.id = id
    self.order = order
    self.created = created
    self.steps = steps
    self.txID = txID
    self.wasSent = wasSent
  }

  /// The `transact` frame, shaped as the reference client sends it.
  ///
  /// The server does not deduplicate re-sent transactions (docs/protocol.md, "Re-sent writes"): a write whose earlier
  /// send may have committed (`resend`) goes without its `create` modes, so that finding its own
  /// entity already there does not make the server refuse it. Everything else in it is idempotent.
  /// `steps` replaces the write's own (a re-send without the steps later writes undo).
  func frame(resend: Bool, steps: [JSON]? = nil) -> ClientMessage {
    let steps = steps ?? self.steps
    return ClientMessage(
      clientEventID: id,
      .transact(txSteps: .array(resend ? steps.map(Self.withoutCreateMode) : steps), created: created, order: order))
  }

  static func withoutCreateMode(_ step: JSON) -> JSON {
    guard case var .array(parts) = step, parts.count == 5, parts[4]["mode"] == "create" else { return step }
    parts.removeLast()
    return .array(parts)
  }

  /// Whether a query result that reflects transactions up to `processedTxID` still needs this
  /// write applied on top.
  func applies(over processedTxID: Int?) -> Bool {
    guard let txID else { return true }
    guard let processedTxID else { return true }
    return txID > processedTxID
  }

  var publicState: PendingWrite.State {
    if txID != nil { return .synced }
    return sentOnThisSocket ? .sent : .enqueued
  }

  var publicValue: PendingWrite { PendingWrite(id: id, created: created, state: publicState, txID: txID) }

  /// The attrs this write creates (`add-attr` steps).
  var addedAttrs: [JSON] {
    steps.compactMap { TxStep.read($0).flatMap { $0.op == .addAttr ? $0.attrArgument : nil } }
  }
}
