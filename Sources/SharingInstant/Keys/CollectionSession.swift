import Dependencies
import Foundation
import IdentifiedCollections
import InstantCore
import InstantDB
import Logging

/// The I/O around one collection key's state (``CollectionKeyState``, which decides everything):
/// the live query, the reference behind the key's `@Shared`, decoding, and the pump that hands the
/// key's writes to the client in order.
///
/// **Exact starts.** Sharing runs a `withLock` closure under the reference's lock and calls the
/// key's `save` after releasing it, so a server result can reach the reference between the two.
/// The key therefore never diffs the value `save` is given. Once it holds the reference
/// (``HeldReference``, taken before it gives a result, or at its first save), every value goes in
/// under the reference's own lock, and there the key looks at what the reference holds: the very
/// value the key gave it (same storage), or — when closures ran since — those closures' result,
/// which started from exactly that given value, since nothing else changes the reference. Those
/// edits are then written (the diff of the two) and the new value is shown with them on top. A
/// `save` does the same without a new value. So every edit is written once, against its own start,
/// whatever arrived meanwhile, on whichever thread; see docs/keys.md.
///
/// `state` and the other mutable properties are read and written under `lock`, which makes
/// `@unchecked Sendable` sound. The lock is taken before the reference's, never after it; it is
/// recursive because a probe of the reference (``OwnReference``) comes back to `save` on the same
/// thread.
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
  private var state = CollectionKeyState<Value>()
  private let decoder: RowDecoder<Entity>
  /// The reference behind the key's `@Shared`, once found (``OwnReference/adopt()``, or the first
  /// edit's save); it shares ``lock``.
  private let own: OwnReference<CollectionSession, Value>
  /// The reference, once held.
  private var reference: HeldReference<Value>? { own.held }
  /// True while the key has the reference's lock: the `save` Sharing calls after it is the key's own.
  private var exchanging = false
  private var subscriber: Delivery?
  /// Reports loading to the subscriber's reference: a value given under the reference's lock does
  /// not end it, as a subscriber's `yield` does.
  private var reportLoading: (@Sendable (Bool) -> Void)?
  private var _hooks = CollectionSessionHooks<Entity>()
  /// The client's logger (a test that makes the client with its own logger reads what keys say).
  private var logger: Logger { client.logger }

  /// `readBack` makes the `@Shared` over this key again (Sharing keeps one reference per key id, so
  /// it finds the key's own); `nil` for a read-only key, which no edit reaches.
  init(
    client: InstantClient, key: EntityKey<Entity>, delivery: KeyDelivery = .immediate,
    readBack: (@Sendable (CollectionSession) -> Shared<Value>)?
  ) {
    self.client = client
    self.key = key
    self.delivery = delivery
    decoder = RowDecoder(namespace: key.namespace, logger: client.logger)
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
  package var statistics: KeyEditStatistics { lock.withLock { state.statistics } }

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
      lock.withLock { if state.given.value == nil { state.holds(initial) } }
      return continuation.resumeReturningInitialValue()
    }
    let subscription = client.subscribe(key.instaQL)
    Task {
      for await result in subscription {
        if let error = result.error { return continuation.resume(throwing: error) }
        // A result from before this key's write reaches the client's queries would undo it on
        // screen; the next one will show it.
        if lock.withLock({ state.writesInFlight > 0 }) { continue }
        adoptReference()
        let (value, failure) = decoder.decode(result)
        return lock.withLock {
          guard state.isCurrent(result) else { return continuation.resumeReturningInitialValue() }
          state.shows(result)
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
      if case .initialValue(let initial) = context, state.given.value == nil { state.holds(initial) }
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
    let done: @Sendable () -> Void = { [self] in continuation.resume(with: lock.withLock { state.saveOutcome }) }
    guard context == .didSet else { return afterQueuedWrites(done) }
    // The key's own value going in, or its question to a reference: nothing was edited. Sharing
    // takes a success as clearing `saveError`, so a write that could not be queued stays reported.
    let keys: Result<Void, any Error>? = lock.withLock {
      guard own.saveIsProbe() || exchanging else { return nil }
      return state.saveOutcome
    }
    if let keys { return continuation.resume(with: keys) }
    hooks.willSave?(value.collection)
    lock.withLock {
      guard !_hooks.unexchanged else {
        write(state.edited(from: state.given.value?.collection ?? [], to: value.collection, key: key))
        state.holds(value)
        return
      }
      guard reference == nil else {
        look()
        return
      }
      guard let found = own.find() else {
        return notWritten(EditNotWritten(namespace: key.namespace, reason: .referenceNotFound))
      }
      own.hold(found)
      // Until now values went in plainly, so a result given after this edit's closure replaced
      // the edit: the reference then holds the value given last, and the edit is not it.
      guard let unchanged = look()?.unchanged, !Value.sameStorage(value, unchanged),
        EntityChanges.count(from: unchanged.collection, to: value.collection, limit: 1) > 0
      else { return }
      notWritten(EditNotWritten(namespace: key.namespace, reason: .replacedBeforeFirstSave))
    }
    afterQueuedWrites(done)
  }

  // MARK: Giving values

  /// Shows `result` unless the state says not now (``CollectionKeyState/arrived(_:)``).
  private func receive(_ result: QueryResult) {
    adoptReference()
    guard lock.withLock({ state.arrived(result) }) else { return }
    // Decoding is the part that grows with the rows: outside the lock, so an edit's `save` (on the
    // main thread, say) never waits for it.
    let (value, failure) = decoder.decode(result)
    lock.withLock {
      guard state.arrived(result) else { return }
      state.shows(result)
      let subscriber = subscriber
      // The first value is the key's load, given at once; the rest go through the delivery.
      (state.gaveValue ? delivery : .immediate).deliver { [self] in
        lock.withLock {
          give(value) { subscriber?(.success($0)) }
          if let failure { report(failure) }
          if let rejection = state.rejection { report(rejection) }
        }
      }
    }
  }

  /// Gives `value` to the reference: under its lock when the key holds it (then `ifHeld` runs),
  /// else through `yield`.
  private func give(_ value: Collection, yield: (Value) -> Void, ifHeld: () -> Void = {}) {
    lock.withLock {
      _hooks.willShow?(value)
      if reference != nil, let shown = exchange(showing: value) {
        if !state.gaveValue { reportLoading?(false) }
        state.gaveValue = true
        _hooks.didShow?(shown.collection)
        return ifHeld()
      }
      let plain = Value(collection: value)
      state.gave(plain)
      yield(plain)
      _hooks.didShow?(value)
    }
  }

  /// Gives `value` to the reference under its lock, with the edits made since the key last looked
  /// on top. Returns what the reference then holds; `nil` when the reference is gone (the key then
  /// gives values plainly, to no one).
  private func exchange(showing value: Collection) -> Value? {
    lock.withLock {
      guard let reference else { return nil }
      exchanging = true
      defer { exchanging = false }
      var shown: Value?
      let alive = reference.withLock { current in
        // With a value to show, a look always says what to put in.
        guard let next = settle(current, showing: value).next else { return }
        (current, shown) = (next, next)
      }
      guard alive else {
        own.release()
        return nil
      }
      return shown
    }
  }

  /// Finds and writes the edits made since the key last looked, reading the reference (its lock
  /// only for the read: a closure that runs after it starts from what was read). `nil` when the
  /// reference is gone.
  @discardableResult
  private func look() -> CollectionKeyState<Value>.Look? {
    lock.withLock {
      guard let current = reference?.value else {
        own.release()
        return nil
      }
      return settle(current, showing: nil)
    }
  }

  /// Tells the state the reference holds `current` (``CollectionKeyState/looked(at:showing:key:)``)
  /// and writes the edits it found.
  private func settle(_ current: Value, showing value: Collection?) -> CollectionKeyState<Value>.Look {
    let look = state.looked(at: current, showing: value, key: key)
    if let edit = look.edit { write(edit) }
    if look.noStart {
      // A reference made without an initial value and edited before the key's first result.
      logger.error("an edit of \(key.namespace) was made before the key had a value; not written")
    }
    return look
  }

  /// Reports `error` to the subscriber through ``delivery``, after the values before it.
  private func report(_ error: any Error) {
    lock.withLock {
      guard let subscriber else { return }
      delivery.deliver { subscriber(.failure(error)) }
    }
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

  /// An edit was not written: logged, and what `save()` throws.
  private func notWritten(_ error: EditNotWritten) {
    logger.error("\(error)")
    state.notWritten(error)
  }

  // MARK: Writing

  /// Acts on an edit the state took in: logs one that could not be encoded, starts the pump.
  private func write(_ edit: CollectionKeyState<Value>.Edit) {
    if let failure = edit.failure {
      logger.error("an edit of \(key.namespace) could not be encoded, so it was not written: \(failure)")
    }
    guard !edit.ops.isEmpty else { return }
    _hooks.willWrite?(edit.ops)
    if edit.startPump { Task { await pump() } }
  }

  /// Hands the key's writes to the client one after another, in the order the edits were made,
  /// until the outbox is empty; an edit made after that starts the next pump.
  private func pump() async {
    while let ops = lock.withLock({ state.nextWrite() }) {
      var failure: (any Error)?
      do {
        watch(try await client.transact(ops))
      } catch {
        failure = error
      }
      let ended = lock.withLock { state.writeEnded(failure: failure) }
      for resume in ended.resume { resume() }
      // The held result was made before the write reached the client's queries; the client's
      // current answer was made after (`transact` applies a write to every query before it
      // returns), so that one is shown.
      if let held = ended.show { receive(await client.currentResult(key.instaQL) ?? held) }
    }
  }

  /// Runs `body` once this key's writes so far are queued (at once when there are none).
  private func afterQueuedWrites(_ body: @escaping @Sendable () -> Void) {
    if !lock.withLock({ state.waitForWrites(body) }) { body() }
  }

  /// Reports a write the server refused on this key (`loadError`) until the key's next write.
  private func watch(_ receipt: WriteReceipt) {
    Task {
      do {
        _ = try await receipt.synced()
      } catch let error as InstantClientError where error.kind == .shutDown {
        return
      } catch {
        logger.error("a write of \(self.key.namespace) was refused: \(error)")
        lock.withLock {
          state.refused(error)
          report(error)
        }
      }
    }
  }
}
