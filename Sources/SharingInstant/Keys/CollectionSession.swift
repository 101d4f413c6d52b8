import Foundation
import IdentifiedCollections
import InstantCore
import InstantDB
import Logging

/// The state behind one collection key's shared reference: the live query, the values an edit may
/// have started from (``EditBases``: what `withLock` edits are diffed against), and the chain of
/// writes that keeps this key's saves in order. It speaks in `IdentifiedArrayOf<Entity>` and
/// callbacks, so keys whose value is another collection (`[Entity]`) convert at their edge.
///
/// Every mutable property is read and written under `lock`, which makes `@unchecked Sendable`
/// sound. Values reach the `@Shared` under that lock too, so the reference takes them in the order
/// ``EditBases`` records them.
final class CollectionSession<Entity: EntityIdentifiable & Equatable>: @unchecked Sendable {
  typealias Value = IdentifiedArrayOf<Entity>
  /// What a load or subscription delivers: a value, or an error; `nil` keeps the initial value.
  typealias Delivery = @Sendable (Result<Value?, any Error>) -> Void

  let client: InstantClient
  let key: EntityKey<Entity>
  private let lock = NSRecursiveLock()
  /// The values given to the reference that an edit may have started from.
  private var bases = EditBases<Entity>()
  /// The last result's entities by id, with the JSON each was decoded from.
  private var decoded: [String: (json: JSON, entity: Entity)] = [:]
  private var lastWrite: Task<Void, Never>?
  /// Writes are numbered as they start and end in that order; a user-initiated `save` waits for
  /// the number that had started when it was called (resumed by the write itself, no extra task).
  private var writesStarted = 0
  private var writesEnded = 0
  private var writesInFlight: Int { writesStarted - writesEnded }
  private var waitingForWrites: [(upTo: Int, resume: @Sendable () -> Void)] = []
  /// The newest result that came while a write of this key was not yet in the client's queries.
  private var heldResult: QueryResult?
  private var lastResult: QueryResult?
  /// The ``QueryResult/sequence`` of the last result shown: an older one never replaces it.
  private var shownSequence = 0
  private var rejection: (any Error)?
  /// Why this key's last write could not be queued (encoding, or the client refused it), until a
  /// later write is queued: what a user-initiated `save()` throws.
  private var unqueued: (any Error)?
  private var subscriber: Delivery?
  /// Whether the live subscription has delivered a result (after which a load only repeats it),
  /// and the error it reported last, if its last delivery ended with one.
  private var subscriptionDelivered = false
  private var lastDeliveredFailure: (any Error)?
  private static var logger: Logger { Logger(label: "sharing-instant") }
  /// How the subscription's values reach the `@Shared` (see ``KeyDelivery``).
  let delivery: KeyDelivery
  private var _hooks = CollectionSessionHooks<Entity>()
  private var _diffBase = DiffBase.edited
  private var _now: @Sendable () -> ContinuousClock.Instant = { .now }

  init(client: InstantClient, key: EntityKey<Entity>, delivery: KeyDelivery = .immediate) {
    self.client = client
    self.key = key
    self.delivery = delivery
  }

  // MARK: Seams

  /// Test seams (see ``CollectionSessionHooks``).
  package var hooks: CollectionSessionHooks<Entity> {
    get { lock.withLock { _hooks } }
    set { lock.withLock { _hooks = newValue } }
  }

  /// What edits are diffed against (a test seam; apps keep ``DiffBase/edited``).
  package var diffBase: DiffBase {
    get { lock.withLock { _diffBase } }
    set { lock.withLock { _diffBase = newValue } }
  }

  /// How long an older value stays a possible start of an edit once a newer one was shown
  /// (``EditBases/retirement``).
  package var retirement: Duration {
    get { lock.withLock { bases.retirement } }
    set { lock.withLock { bases.retirement = newValue } }
  }

  /// The clock ``EditBases`` retires values by (a test seam).
  package var now: @Sendable () -> ContinuousClock.Instant {
    get { lock.withLock { _now } }
    set { lock.withLock { _now = newValue } }
  }

  // MARK: Reading

  /// Whether a subscription delivers to a `@Shared`.
  var isSubscribed: Bool { lock.withLock { subscriber != nil } }

  /// The value the `@Shared` was made with: what an edit made before the first result starts from.
  func noteInitialValue(_ value: Value) {
    lock.withLock {
      if bases.newest == nil { bases.edited(value, at: _now()) }
    }
  }

  func load(_ resume: @escaping Delivery) {
    let subscription = client.subscribe(key.instaQL)
    Task {
      for await result in subscription {
        if let error = result.error { return resume(.failure(error)) }
        // A result from before this key's write reaches the overlay would undo it on screen;
        // the next one will show it.
        if lock.withLock({ writesInFlight > 0 }) { continue }
        // Under the lock, so the reference is set in the order results were accepted: a first
        // result that reaches this task after the live subscription already delivered a newer
        // one must not overwrite it (under load it did, and the key stayed stale until the next
        // change).
        return lock.withLock {
          if subscriptionDelivered {
            // Repeat what the subscription last said: its value, or the error it reported after
            // it (a success would clear that error on the reference).
            if let failure = lastDeliveredFailure { return resume(.failure(failure)) }
            return show(bases.newest ?? [], through: { resume(.success($0)) })
          }
          let (value, failure) = self.accept(result)
          // A value with undecodable entities would clear the error the subscription reports.
          if let failure { return resume(.failure(failure)) }
          show(value, through: { resume(.success($0)) })
        }
      }
      resume(.success(nil))
    }
  }

  /// Delivers every result (and error) to `subscriber`, through ``delivery``, until the returned
  /// cancel is called.
  func subscribe(_ subscriber: @escaping Delivery) -> @Sendable () -> Void {
    lock.withLock { self.subscriber = subscriber }
    let subscription = client.subscribe(key.instaQL)
    let task = Task {
      for await result in subscription {
        if let error = result.error {
          self.lock.withLock {
            self.subscriptionDelivered = true
            self.lastDeliveredFailure = error
            self.report(error)
          }
          continue
        }
        receive(result)
      }
    }
    return { task.cancel() }
  }

  /// Shows `result` unless it is older than what the key shows. While a write of this key is not
  /// yet in the client's queries, a result from before it would undo it on screen: the newest is
  /// held until the write is queued.
  private func receive(_ result: QueryResult) {
    lock.withLock {
      guard result.sequence == 0 || result.sequence >= shownSequence else { return }
      guard writesInFlight == 0 else {
        if result.sequence >= heldResult?.sequence ?? 0 { heldResult = result }
        return
      }
      deliver(result)
    }
  }

  /// Decodes `result` and gives it to the subscriber, with any decoding failure or standing
  /// rejection reported after the value.
  private func deliver(_ result: QueryResult) {
    lock.withLock {
      subscriptionDelivered = true
      let (value, failure) = accept(result)
      showToSubscriber(value)
      if let failure { report(failure) }
      if let rejection { report(rejection) }
      lastDeliveredFailure = rejection ?? failure
    }
  }

  /// Gives `value` to the subscriber through ``delivery``; returns the number ``EditBases`` knows
  /// it by, or `nil` when nothing subscribes.
  @discardableResult
  private func showToSubscriber(_ value: Value) -> Int? {
    lock.withLock {
      guard let subscriber else { return nil }
      let number = bases.give(value)
      _hooks.willShow?(value)
      delivery.deliver { [self] in
        lock.withLock {
          subscriber(.success(value))
          bases.taken(number, at: _now())
          _hooks.didShow?(value)
        }
      }
      return number
    }
  }

  /// Gives `value` to the reference through `yield` (a load's continuation), at once.
  private func show(_ value: Value, through yield: (Value) -> Void) {
    lock.withLock {
      let number = bases.give(value)
      _hooks.willShow?(value)
      yield(value)
      bases.taken(number, at: _now())
      _hooks.didShow?(value)
    }
  }

  /// Reports `error` to the subscriber through ``delivery``, after the values before it.
  private func report(_ error: any Error) {
    lock.withLock {
      guard let subscriber else { return }
      delivery.deliver { subscriber(.failure(error)) }
    }
  }

  /// Decodes `result` and records it as the last result. An entity whose JSON is the same as in
  /// the previous result is not decoded again (so it is the same bits as before, which
  /// ``EntityChanges`` relies on).
  private func accept(_ result: QueryResult) -> (Value, EntityDecodingError?) {
    var value = Value()
    var failures: [(id: String, error: any Error)] = []
    let previous = lock.withLock { self.decoded }
    var decoded: [String: (json: JSON, entity: Entity)] = [:]
    let decoder = JSONValueDecoder()
    for (index, json) in (result.data[key.namespace]?.arrayValue ?? []).enumerated() {
      let id = json["id"]?.stringValue ?? "#\(index)"
      if let known = previous[id], known.json == json {
        value.updateOrAppend(known.entity)
        decoded[id] = known
        continue
      }
      do {
        let entity = try decoder.decode(Entity.self, from: json)
        value.updateOrAppend(entity)
        decoded[id] = (json, entity)
      } catch {
        failures.append((id, error))
      }
    }
    let failure = failures.isEmpty ? nil : EntityDecodingError(namespace: key.namespace, errors: failures)
    if let failure { Self.logger.error("\(failure)") }
    lock.withLock {
      lastResult = result
      shownSequence = max(shownSequence, result.sequence)
      self.decoded = decoded
    }
    return (value, failure)
  }

  // MARK: Writing

  /// Saves an edit made with `withLock` (`.didSet`): finds its writes (``EditWrites``, against the
  /// values it may have started from) and queues them behind this key's earlier ones. A
  /// user-initiated `save()` writes nothing of its own: every change already went through
  /// `withLock`, and the reference's value may meanwhile hold a newer server result, so it only
  /// waits until this key's writes are queued — and throws when the last of them could not be
  /// (until a later one is).
  func save(
    _ value: Value, context: SaveContext, reading: () -> ReferenceReading<Value>,
    done: @escaping @Sendable (Result<Void, any Error>) -> Void
  ) {
    guard context == .didSet else {
      return afterQueuedWrites { [self] in done(lock.withLock { unqueued.map { .failure($0) } ?? .success(()) }) }
    }
    hooks.willSave?(value)
    // The reading, the writes, the values the next edit may start from and the in-flight count
    // change together, so no value reaches the reference meanwhile and a result that arrives from
    // now on is held until the write is in the client's overlay.
    lock.withLock {
      let now = _now()
      let writes: EditWrites<Entity>
      let found: KeyEditStatistics.Reading
      do {
        (writes, found) = try self.writes(
          of: value, reading: _diffBase == .newestShown || hooks.unreadable ? .unknown : reading(), at: now)
      } catch {
        unqueued = error
        return done(.failure(error))
      }
      // The reference holds the edit, unless a value reached it after the closure: then the key
      // shows the edit on top of that value, and that is where the next edit starts.
      if found == .afterResult, let shown = writes.onNewest, showToSubscriber(shown) != nil {
        if writes.ops.isEmpty, let failure = lastDeliveredFailure { report(failure) }
      } else {
        bases.edited(value, at: now)
      }
      if !writes.withheld.isEmpty {
        Self.logger.notice(
          "an edit of \(key.namespace) met a result that arrived while it was made; not written, as the edit may not have seen what it undoes: \(writes.withheld.joined(separator: "; "))"
        )
      }
      let ops = writes.ops
      guard !ops.isEmpty else { return afterQueuedWrites { done(.success(())) } }
      KeyEditStatistics.record(found, withheld: writes.withheld.count, ops: ops)
      writesStarted += 1
      rejection = nil
      let previous = lastWrite
      lastWrite = Task {
        await previous?.value
        do {
          let receipt = try await self.client.transact(ops)
          self.lock.withLock { self.unqueued = nil }
          done(.success(()))
          self.watch(receipt)
        } catch {
          self.lock.withLock {
            self.unqueued = error
            self.heldResult = self.heldResult ?? self.lastResult
          }
          done(.failure(error))
        }
        await self.finishWrite()
      }
    }
  }

  /// The writes of `edit`, found from what the reference holds (`reading`) and the values it took;
  /// and what the reference was found holding.
  private func writes(of edit: Value, reading: ReferenceReading<Value>, at now: ContinuousClock.Instant) throws
    -> (EditWrites<Entity>, KeyEditStatistics.Reading)
  {
    if _diffBase == .newestShown {
      return (try EditWrites(edit: edit, starts: bases.newest.map { [$0] } ?? [], newest: nil, key: key), .unread)
    }
    switch reading {
    case .edit:
      // Nothing reached the reference after the closure: it was given the newest value taken.
      return (try EditWrites(edit: edit, starts: bases.newestTaken.map { [$0] } ?? [], newest: nil, key: key), .edit)
    case .other(let current):
      var retained = bases.retained(at: now)
      guard let newest = retained.last, EditBases.same(newest, current) else {
        // Another thread's edit, not saved yet, is in the reference.
        return (try EditWrites(edit: edit, starts: retained, newest: nil, key: key), .besideOtherEdit)
      }
      // A value reached the reference after the closure; the edit started from one taken before
      // (which may equal it: a repeat stands for both).
      if !bases.newestTakenRepeats { retained.removeLast() }
      let recent = bases.recent(at: now, within: .milliseconds(10))
      let writes = try EditWrites(edit: edit, startsBefore: retained, recent: recent, newest: newest, key: key) {
        [client] in client.lastCreatingWrite($0, id: $1)
      }
      return (writes, .afterResult)
    case .unknown:
      // The reference could not be read back (the read made another reference: a thread outside
      // the dependency context that made this one, as swift-dependencies scopes references per
      // test). The edit started from one of the values the reference took lately, the newest
      // included: decided as after a result, against the newest, so a row this device created a
      // moment before and the edit removed is deleted, and another device's is kept.
      let retained = bases.retained(at: now)
      guard let newest = retained.last else {
        return (try EditWrites(edit: edit, starts: [], newest: nil, key: key), .unread)
      }
      let recent = bases.recent(at: now, within: .milliseconds(10))
      let writes = try EditWrites(edit: edit, startsBefore: retained, recent: recent, newest: newest, key: key) {
        [client] in client.lastCreatingWrite($0, id: $1)
      }
      return (writes, .unread)
    }
  }

  /// Runs `body` once this key's writes so far are queued (at once when there are none).
  private func afterQueuedWrites(_ body: @escaping @Sendable () -> Void) {
    let now: Bool = lock.withLock {
      guard writesEnded < writesStarted else { return true }
      waitingForWrites.append((writesStarted, body))
      return false
    }
    if now { body() }
  }

  /// Counts a write as ended and resumes the saves waiting for it. A result held meanwhile was
  /// made before the write reached the client's queries; the client's current answer was made
  /// after (`transact` applies a write to every query before it returns), so that one is shown.
  private func finishWrite() async {
    let (held, ready): (QueryResult?, [@Sendable () -> Void]) = lock.withLock {
      writesEnded += 1
      let ended = writesEnded
      let ready = waitingForWrites.filter { $0.upTo <= ended }.map(\.resume)
      waitingForWrites.removeAll { $0.upTo <= ended }
      guard writesInFlight == 0 else { return (nil, ready) }
      defer { heldResult = nil }
      return (heldResult, ready)
    }
    for resume in ready { resume() }
    guard let held else { return }
    receive(await client.currentResult(key.instaQL) ?? held)
  }

  /// Reports a write the server refused on this key (`loadError`) until the key's next write.
  private func watch(_ receipt: WriteReceipt) {
    Task {
      do {
        _ = try await receipt.synced()
      } catch let error as InstantClientError where error.kind == .shutDown {
        return
      } catch {
        Self.logger.error("a write of \(self.key.namespace) was refused: \(error)")
        lock.withLock {
          rejection = error
          lastDeliveredFailure = error
          report(error)
        }
      }
    }
  }
}

// MARK: Sharing's continuations

/// A key forwards to these, converting the collection to its own value type (`Array` for the
/// array keys) on the way out and back on the way in.
extension CollectionSession {
  func load<Output>(
    _ continuation: LoadContinuation<Output>, context: LoadContext<Output>,
    as convert: @escaping @Sendable (Value) -> Output, from back: (Output) -> Value
  ) {
    if ReferenceReadBack.isMakingStray { return continuation.resumeReturningInitialValue() }
    if case .initialValue(let initial) = context { noteInitialValue(back(initial)) }
    load { result in
      switch result {
      case .success(let value?): continuation.resume(returning: convert(value))
      case .success(nil): continuation.resumeReturningInitialValue()
      case .failure(let error): continuation.resume(throwing: error)
      }
    }
  }

  func subscribe<Output>(
    _ subscriber: SharedSubscriber<Output>, context: LoadContext<Output>,
    as convert: @escaping @Sendable (Value) -> Output, from back: (Output) -> Value
  ) -> SharedSubscription {
    if ReferenceReadBack.isMakingStray { return SharedSubscription {} }
    if case .initialValue(let initial) = context { noteInitialValue(back(initial)) }
    return SharedSubscription(subscribe { result in
      switch result {
      case .success(let value?): subscriber.yield(convert(value))
      case .success(nil): break
      case .failure(let error): subscriber.yield(throwing: error)
      }
    })
  }

  /// Saves `edit` of a key whose value is `Output`: `read` reads the `@Shared`'s value back (see
  /// ``ReferenceReadBack``), `back` converts it to this session's collection.
  func save<Output>(
    _ edit: Output, context: SaveContext, read: () -> Output, sameStorage: (Output, Output) -> Bool,
    from back: @escaping (Output) -> Value, continuation: SaveContinuation
  ) {
    save(back(edit), context: context, reading: {
      ReferenceReadBack.reading(of: edit, read: read, sameStorage: sameStorage, convert: back)
    }) { continuation.resume(with: $0) }
  }
}
