import Dependencies
import Foundation
import IdentifiedCollections
import InstantCore
import InstantDB
import Logging

/// The state behind one collection key's shared reference: the live query, what the key gave the
/// reference, and the chain of writes that keeps this key's edits in order.
///
/// **Exact starts.** Sharing runs a `withLock` closure under the reference's lock and calls the
/// key's `save` after releasing it, so a server result can reach the reference between the two.
/// The key therefore never diffs the value `save` is given. Once it holds the reference
/// (``HeldReference``, taken before it gives a result, or at its first save), every value goes in
/// under the reference's own lock, and there the key looks at what the reference holds: the very value the
/// key gave it (same storage), or — when closures ran since — those closures' result, which
/// started from exactly that given value, since nothing else changes the reference. Those edits are
/// then written (the diff of the two) and the new value is shown with them on top. A `save` does the
/// same without a new value. So every edit is written once, against its own start, whatever
/// arrived meanwhile, on whichever thread; see docs/keys.md.
///
/// Every mutable property is read and written under `lock`, which makes `@unchecked Sendable`
/// sound. The lock is taken before the reference's, never after it.
final class CollectionSession<Value: KeyCollection>: @unchecked Sendable {
  typealias Entity = Value.Entity
  typealias Collection = IdentifiedArrayOf<Entity>
  /// What a subscription delivers: a value, or an error.
  typealias Delivery = @Sendable (Result<Value?, any Error>) -> Void

  let client: InstantClient
  let key: EntityKey<Entity>
  /// How the subscription's values reach the `@Shared` (see ``KeyDelivery``).
  let delivery: KeyDelivery
  private let lock = NSRecursiveLock()

  /// What the reference holds as far as the key has seen.
  private var given = GivenValue<Value>()
  /// Whether the key has given the reference a value (the first one, its load, skips ``delivery``).
  private var gaveValue = false
  /// The reference behind the key's `@Shared`, once found (``OwnReference/adopt()``, or the first
  /// edit's save); it shares ``lock``.
  private let own: OwnReference<CollectionSession, Value>
  /// The reference, once held.
  private var reference: HeldReference<Value>? { own.held }
  /// True while the key has the reference's lock: the `save` Sharing calls after it is the key's own.
  private var exchanging = false
  private var _statistics = KeyEditStatistics()

  /// The last result's rows and the value decoded from them, row for row (`nil` after a row failed
  /// to decode); read and written under `decoding` only.
  private var decoded: (rows: [JSON], value: Collection)?
  private let decoding = NSLock()
  private var lastWrite: Task<Void, Never>?
  /// Writes are numbered as they start and end in that order; a `save` waits for the number that
  /// had started when it was called (resumed by the write itself, no extra task).
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
  /// later write is queued: what `save()` throws.
  private var unqueued: (any Error)?
  private var subscriber: Delivery?
  /// Reports loading to the subscriber's reference: a value given under the reference's lock does
  /// not end it, as a subscriber's `yield` does.
  private var reportLoading: (@Sendable (Bool) -> Void)?
  private static var logger: Logger { Logger(label: "sharing-instant") }
  private var _hooks = CollectionSessionHooks<Entity>()

  /// `readBack` makes the `@Shared` over this key again (Sharing keeps one reference per key id, so
  /// it finds the key's own); `nil` for a read-only key, which no edit reaches.
  init(
    client: InstantClient, key: EntityKey<Entity>, delivery: KeyDelivery = .immediate,
    readBack: (@Sendable (CollectionSession) -> Shared<Value>)?
  ) {
    self.client = client
    self.key = key
    self.delivery = delivery
    own = OwnReference(lock: lock, readBack: readBack)
    own.attach(self)
  }

  // MARK: Seams

  /// Test seams (see ``CollectionSessionHooks``).
  package var hooks: CollectionSessionHooks<Entity> {
    get { lock.withLock { _hooks } }
    set { lock.withLock { _hooks = newValue } }
  }

  /// What this key's edits met so far.
  package var statistics: KeyEditStatistics { lock.withLock { _statistics } }

  /// Whether a subscription delivers to a `@Shared`.
  var isSubscribed: Bool { lock.withLock { subscriber != nil } }

  /// Whether the key holds its reference.
  var holdsReference: Bool { reference != nil }

  // MARK: Sharing's continuations

  /// A load made as the reference is created resumes at once with the initial value (the
  /// subscription reports loading until its first result); one the app asks for waits for the next
  /// result and shows it as the subscription would.
  func load(_ continuation: LoadContinuation<Value>, context: LoadContext<Value>) {
    if ReferenceReadBack.isMakingStray { return continuation.resumeReturningInitialValue() }
    own.captureDependencies()
    if case .initialValue(let initial) = context {
      lock.withLock { if given.value == nil { given.holds(initial) } }
      return continuation.resumeReturningInitialValue()
    }
    let subscription = client.subscribe(key.instaQL)
    Task {
      for await result in subscription {
        if let error = result.error { return continuation.resume(throwing: error) }
        // A result from before this key's write reaches the client's queries would undo it on
        // screen; the next one will show it.
        if lock.withLock({ writesInFlight > 0 }) { continue }
        adoptReference()
        let (value, failure) = decode(result)
        return lock.withLock {
          guard result.sequence == 0 || result.sequence >= shownSequence else {
            return continuation.resumeReturningInitialValue()
          }
          shown(result)
          if let failure { return continuation.resume(throwing: failure) }
          // Held, the value goes in under the reference's lock; the continuation then leaves it.
          give(value) { continuation.resume(returning: $0) } ifHeld: { continuation.resumeReturningInitialValue() }
        }
      }
      continuation.resumeReturningInitialValue()
    }
  }

  /// Delivers every result (and error) to `subscriber`, through ``delivery``, until the
  /// subscription is cancelled.
  func subscribe(_ subscriber: SharedSubscriber<Value>, context: LoadContext<Value>) -> SharedSubscription {
    if ReferenceReadBack.isMakingStray { return SharedSubscription {} }
    own.captureDependencies()
    lock.withLock {
      if case .initialValue(let initial) = context, given.value == nil { given.holds(initial) }
      reportLoading = { subscriber.yieldLoading($0) }
      self.subscriber = { result in
        switch result {
        case .success(let value?): subscriber.yield(value)
        case .success(nil): break
        case .failure(let error): subscriber.yield(throwing: error)
        }
      }
    }
    subscriber.yieldLoading(true)
    let subscription = client.subscribe(key.instaQL)
    let task = Task {
      for await result in subscription {
        if let error = result.error {
          report(error)
          continue
        }
        receive(result)
      }
    }
    own.markSubscribed()
    return SharedSubscription { task.cancel() }
  }

  /// Saves an edit made with `withLock` (`.didSet`): finds every edit made since the key last
  /// looked, under the reference's lock, writes it, and resumes once this key's writes so far are
  /// queued. A user-initiated `save()` only waits for those writes: every change already went
  /// through `withLock`. Throws when the last write could not be queued (until a later one is).
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    let done: @Sendable () -> Void = { [self] in
      continuation.resume(with: lock.withLock { unqueued.map { .failure($0) } ?? .success(()) })
    }
    guard context == .didSet else { return afterQueuedWrites(done) }
    // The key's own value going in, or its question to a reference: nothing was edited. Sharing
    // takes a success as clearing `saveError`, so a write that could not be queued stays reported.
    let keys: Result<Void, any Error>? = lock.withLock {
      guard own.saveIsProbe() || exchanging else { return nil }
      return unqueued.map { .failure($0) } ?? .success(())
    }
    if let keys { return continuation.resume(with: keys) }
    hooks.willSave?(value.collection)
    let lost: EditNotWritten? = lock.withLock {
      guard !_hooks.unexchanged else {
        write(from: given.value?.collection ?? [], to: value.collection)
        given.holds(value)
        return nil
      }
      guard reference == nil else {
        look()
        return nil
      }
      guard let found = own.find() else {
        return EditNotWritten(namespace: key.namespace, reason: .referenceNotFound)
      }
      own.hold(found)
      // Until now values went in plainly, so a result given after this edit's closure replaced
      // the edit: the reference then holds the value given last, and the edit is not it.
      var replaced = false
      look { given in
        replaced = !Value.sameStorage(value, given)
          && EntityChanges.count(from: given.collection, to: value.collection, limit: 1) > 0
      }
      return replaced ? EditNotWritten(namespace: key.namespace, reason: .replacedBeforeFirstSave) : nil
    }
    if let lost {
      Self.logger.error("\(lost)")
      lock.withLock { unqueued = lost }
    }
    afterQueuedWrites(done)
  }

  // MARK: Giving values

  /// Shows `result` unless it is older than what the key shows. While a write of this key is not
  /// yet in the client's queries, a result from before it would undo it on screen: the newest is
  /// held until the write is queued.
  private func receive(_ result: QueryResult) {
    adoptReference()
    guard lock.withLock({ isToShow(result) }) else { return }
    // Decoding is the part that grows with the rows: outside the lock, so an edit's `save` (on the
    // main thread, say) never waits for it.
    let (value, failure) = decode(result)
    lock.withLock {
      guard isToShow(result) else { return }
      shown(result)
      let subscriber = subscriber
      // The first value is the key's load, given at once; the rest go through the delivery.
      (gaveValue ? delivery : .immediate).deliver { [self] in
        lock.withLock {
          give(value) { subscriber?(.success($0)) }
          if let failure { report(failure) }
          if let rejection { report(rejection) }
        }
      }
    }
  }

  /// Whether `result` is to be shown now: it is not older than what the key shows, and no write of
  /// the key is on its way into the client's queries (a result from before it would undo it on
  /// screen: the newest is held until the write is queued).
  private func isToShow(_ result: QueryResult) -> Bool {
    guard result.sequence == 0 || result.sequence >= shownSequence else { return false }
    guard writesInFlight == 0 else {
      if result.sequence >= heldResult?.sequence ?? 0 { heldResult = result }
      return false
    }
    return true
  }

  /// Records `result` as the one shown last.
  private func shown(_ result: QueryResult) {
    lastResult = result
    shownSequence = max(shownSequence, result.sequence)
  }

  /// Gives `value` to the reference: under its lock when the key holds it (then `ifHeld` runs),
  /// else through `yield`.
  private func give(_ value: Collection, yield: (Value) -> Void, ifHeld: () -> Void = {}) {
    lock.withLock {
      _hooks.willShow?(value)
      if reference != nil, let shown = exchange(showing: value) {
        if !gaveValue { reportLoading?(false) }
        gaveValue = true
        _hooks.didShow?(shown)
        return ifHeld()
      }
      let plain = Value(collection: value)
      given.holds(plain)
      gaveValue = true
      yield(plain)
      _hooks.didShow?(value)
    }
  }

  /// Gives `value` to the reference under its lock, with the edits made since the key last looked
  /// on top (``settle(_:showing:unchanged:)``). Returns what the reference then holds; `nil` when the
  /// reference is gone (the key then gives values plainly, to no one).
  private func exchange(showing value: Collection) -> Collection? {
    lock.withLock {
      guard let reference else { return nil }
      exchanging = true
      defer { exchanging = false }
      var shown: Collection?
      let alive = reference.withLock { current in
        // With a value to show, `settle` always returns what to put in.
        guard let next = settle(current, showing: value) else { return }
        (current, shown) = (next.value, next.collection)
      }
      guard alive else {
        own.release()
        return nil
      }
      return shown
    }
  }

  /// Finds and writes the edits made since the key last looked, reading the reference (its lock
  /// only for the read: a closure that runs after it starts from what was read). False when the
  /// reference is gone.
  @discardableResult
  private func look(unchanged: (Value) -> Void = { _ in }) -> Bool {
    lock.withLock {
      guard let current = reference?.value else {
        own.release()
        return false
      }
      settle(current, showing: nil, unchanged: unchanged)
      return true
    }
  }

  /// What the reference holds, `current`, against ``given`` (``GivenValue/look(at:)``): the value
  /// given (`unchanged` runs), or edits made since from exactly that start, which are written.
  /// Returns `value` with the edited entities on top, to put in the reference; the reference is
  /// taken to hold `current` when there is no `value`.
  @discardableResult
  private func settle(
    _ current: Value, showing value: Collection?, unchanged: (Value) -> Void = { _ in }
  ) -> (value: Value, collection: Collection)? {
    var next = value
    switch given.look(at: current) {
    case .given(let given):
      unchanged(given)
    case .edited(let start, let edit):
      let changed = write(from: start, to: edit)
      if value != nil { _statistics.editsMetByResults += 1 }
      next = next.map { GivenValue<Value>.onTop($0, of: edit, changed: changed) }
    case .noStart:
      // A reference made without an initial value and edited before the key's first result.
      Self.logger.error("an edit of \(key.namespace) was made before the key had a value; not written")
    }
    guard let next else {
      given.holds(current)
      return nil
    }
    let nextValue = Value(collection: next)
    given.holds(nextValue)
    return (nextValue, next)
  }

  /// Reports `error` to the subscriber through ``delivery``, after the values before it.
  private func report(_ error: any Error) {
    lock.withLock {
      guard let subscriber else { return }
      delivery.deliver { subscriber(.failure(error)) }
    }
  }

  /// Decodes `result`'s entities. One whose JSON is the same as in the result decoded before is not
  /// decoded again; when the result holds the same entities in the same order as before (perhaps
  /// with more after them), the value decoded before is patched: only the changed rows cost more
  /// than a comparison. Under ``decoding``, not the session's lock.
  private func decode(_ result: QueryResult) -> (Collection, EntityDecodingError?) {
    decoding.withLock {
      let rows = result.data[key.namespace]?.arrayValue ?? []
      let decoder = JSONValueDecoder()
      if let decoded, let value = Self.patch(decoded, with: rows, decoder) {
        self.decoded = (rows, value)
        return (value, nil)
      }
      var value = Collection()
      var failures: [(id: String, error: any Error)] = []
      // A buffer of its own even when empty: see ``KeyCollection/sameStorage(_:_:)``.
      value.reserveCapacity(max(rows.count, 1))
      for (index, json) in rows.enumerated() {
        let id = json["id"]?.stringValue ?? "#\(index)"
        if let decoded, let known = decoded.value.index(id: id), decoded.rows[known] == json {
          value.updateOrAppend(decoded.value[known])
          continue
        }
        do {
          value.updateOrAppend(try decoder.decode(Entity.self, from: json))
        } catch {
          failures.append((id, error))
        }
      }
      // Rows and entities line up only when every row decoded (and no id repeats).
      decoded = failures.isEmpty && value.count == rows.count ? (rows, value) : nil
      let failure = failures.isEmpty ? nil : EntityDecodingError(namespace: key.namespace, errors: failures)
      if let failure { Self.logger.error("\(failure)") }
      return (value, failure)
    }
  }

  /// `decoded.value` with the rows of `rows` that differ from `decoded.rows` decoded again, and
  /// rows after them appended; `nil` when an entity moved, left or came in between, or a row does
  /// not decode (the whole result is then decoded).
  private static func patch(
    _ decoded: (rows: [JSON], value: Collection), with rows: [JSON], _ decoder: JSONValueDecoder
  ) -> Collection? {
    guard rows.count >= decoded.rows.count else { return nil }
    var value = decoded.value
    for (index, json) in rows.enumerated() {
      if index < decoded.rows.count {
        guard json != decoded.rows[index] else { continue }
        guard json["id"]?.stringValue == decoded.value[index].id,
          let entity = try? decoder.decode(Entity.self, from: json)
        else { return nil }
        value[id: entity.id] = entity
      } else {
        guard let entity = try? decoder.decode(Entity.self, from: json), value.append(entity).inserted else { return nil }
      }
    }
    return value
  }

  // MARK: Finding the reference

  /// Before a result is given, takes the key's reference if it does not hold it yet (see
  /// ``OwnReference``). A value given plainly could replace an edit whose closure ran and whose
  /// save has not, so the key gives plainly only while reading back finds no reference: one still
  /// being made, which no one can edit yet.
  private func adoptReference() {
    guard !hooks.unexchanged else { return }
    own.adopt()
  }

  // MARK: Writing

  /// Queues the writes that turn `start` into `edit` behind this key's earlier ones; returns the
  /// ids of the entities that differ.
  @discardableResult
  private func write(from start: Collection, to edit: Collection) -> Set<Entity.ID> {
    lock.withLock {
      let (ops, changed): ([InstaMLOp], Set<String>)
      do {
        (ops, changed) = try EditWrites.ops(from: start, to: edit, key: key)
      } catch {
        Self.logger.error("an edit of \(key.namespace) could not be encoded, so it was not written: \(error)")
        unqueued = error
        return EntityChanges.ids(from: start, to: edit)
      }
      guard !ops.isEmpty else { return changed }
      _statistics.writes += 1
      _hooks.willWrite?(ops)
      writesStarted += 1
      rejection = nil
      let previous = lastWrite
      lastWrite = Task {
        await previous?.value
        do {
          let receipt = try await client.transact(ops)
          lock.withLock { unqueued = nil }
          watch(receipt)
        } catch {
          lock.withLock {
            unqueued = error
            heldResult = heldResult ?? lastResult
          }
        }
        await finishWrite()
      }
      return changed
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
          report(error)
        }
      }
    }
  }
}
