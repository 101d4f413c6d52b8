import Foundation
import IdentifiedCollections
import InstantCore
import InstantDB
import Logging

/// The state behind one collection key's shared reference: the live query, the snapshot of what
/// the key last delivered or saved (the only thing `withLock` edits are diffed against), and the
/// chain of writes that keeps this key's saves in order. It speaks in `IdentifiedArrayOf<Entity>`
/// and callbacks, so keys whose value is another collection (`[Entity]`) convert at their edge.
///
/// Every mutable property is read and written under `lock`, which makes `@unchecked Sendable` sound.
final class CollectionSession<Entity: EntityIdentifiable & Equatable>: @unchecked Sendable {
  typealias Value = IdentifiedArrayOf<Entity>
  /// What a load or subscription delivers: a value, or an error; `nil` keeps the initial value.
  typealias Delivery = @Sendable (Result<Value?, any Error>) -> Void

  let client: InstantClient
  let key: EntityKey<Entity>
  private let lock = NSRecursiveLock()
  /// What this key last delivered or saved, by id.
  private var snapshot = IdentifiedArrayOf<Entity>()
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

  init(client: InstantClient, key: EntityKey<Entity>, delivery: KeyDelivery = .immediate) {
    self.client = client
    self.key = key
    self.delivery = delivery
  }

  // MARK: Reading

  func load(_ resume: @escaping Delivery) {
    let subscription = client.subscribe(key.instaQL)
    Task {
      for await result in subscription {
        if let error = result.error { return resume(.failure(error)) }
        // A result from before this key's write reaches the overlay would undo it on screen and
        // in the snapshot; the next one will show it.
        if lock.withLock({ writesInFlight > 0 }) { continue }
        // Under the lock `deliver` holds, so the reference is set in the order results were
        // accepted: a first result that reaches this task after the live subscription already
        // delivered a newer one must not overwrite it (under load it did, and the key stayed
        // stale until the next change).
        return lock.withLock {
          if subscriptionDelivered {
            // Repeat what the subscription last said: its value, or the error it reported after
            // it (a success would clear that error on the reference).
            return resume(lastDeliveredFailure.map { .failure($0) } ?? .success(snapshot))
          }
          let (value, failure) = self.accept(result)
          // A value with undecodable entities would clear the error the subscription reports.
          if let failure { return resume(.failure(failure)) }
          resume(.success(value))
        }
      }
      resume(.success(nil))
    }
  }

  /// Delivers every result (and error) to `subscriber` until the returned cancel is called.
  func subscribe(_ subscriber: @escaping Delivery) -> @Sendable () -> Void {
    lock.withLock { self.subscriber = subscriber }
    let subscription = client.subscribe(key.instaQL)
    let task = Task {
      for await result in subscription {
        if let error = result.error {
          self.lock.withLock {
            self.subscriptionDelivered = true
            self.lastDeliveredFailure = error
            subscriber(.failure(error))
          }
          continue
        }
        receive(result)
      }
    }
    return { task.cancel() }
  }

  /// Shows `result` unless it is older than what the key shows. While a write of this key is not
  /// yet in the client's queries, a result from before it would undo it on screen and in the
  /// snapshot: the newest is held until the write is queued.
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

  /// Decodes `result`, makes it the snapshot and gives it to the subscriber, with any decoding
  /// failure or standing rejection reported after the value.
  private func deliver(_ result: QueryResult) {
    let subscriber = lock.withLock { self.subscriber }
    lock.withLock {
      subscriptionDelivered = true
      let (value, failure) = accept(result)
      subscriber?(.success(value))
      if let failure { subscriber?(.failure(failure)) }
      if let rejection { subscriber?(.failure(rejection)) }
      lastDeliveredFailure = rejection ?? failure
    }
  }

  /// Decodes `result` and records it as what this key last delivered. An entity whose JSON is the
  /// same as in the previous result is not decoded again.
  private func accept(_ result: QueryResult) -> (Value, EntityDecodingError?) {
    var value = Value()
    var failures: [(id: String, reason: String)] = []
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
        failures.append((id, "\(error)"))
      }
    }
    let failure = failures.isEmpty ? nil : EntityDecodingError(namespace: key.namespace, failures: failures)
    if let failure { Self.logger.error("\(failure)") }
    lock.withLock {
      snapshot = value
      lastResult = result
      shownSequence = max(shownSequence, result.sequence)
      self.decoded = decoded
    }
    return (value, failure)
  }

  // MARK: Writing

  /// Saves an edit made with `withLock` (`.didSet`): diffs it against the snapshot and queues the
  /// writes behind this key's earlier ones. A user-initiated `save()` writes nothing of its own:
  /// every change already went through `withLock`, and the reference's value may meanwhile hold a
  /// newer server result, so it only waits until this key's writes are queued — and throws when
  /// the last of them could not be (until a later one is).
  func save(_ value: Value, context: SaveContext, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
    guard context == .didSet else {
      return afterQueuedWrites { [self] in done(lock.withLock { unqueued.map { .failure($0) } ?? .success(()) }) }
    }
    // The diff, the new snapshot and the in-flight count change together, so a result that
    // arrives from now on is held until the write is in the client's overlay.
    lock.withLock {
      let ops: [InstaMLOp]
      do {
        let (old, new) = try changedEntities(from: snapshot, to: value)
        ops = EntityDiff.ops(namespace: key.namespace, node: key.query, old: old, new: new)
      } catch {
        unqueued = error
        return done(.failure(error))
      }
      snapshot = value
      guard !ops.isEmpty else { return afterQueuedWrites { done(.success(())) } }
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

  /// The entities that differ between two values, encoded: unchanged ones (by `==`) are left out,
  /// so a one-row edit encodes one row, not the collection. Rows at the same position under the
  /// same id (an edit in place, the common case) are compared position by position; only the
  /// rest is matched by id, which hashes.
  private func changedEntities(from base: Value, to value: Value) throws -> (EntityDiff.Snapshot, EntityDiff.Snapshot) {
    var old = EntityDiff.Snapshot()
    var new = EntityDiff.Snapshot()
    let (baseIDs, ids) = (base.ids, value.ids)
    // Compared in place: this code is generic over the app's entity type, so reading an element
    // by subscript would copy it (and retain each of its fields) just to compare it. A row the
    // edit did not touch is a bit-for-bit copy of its snapshot (same string buffers, same
    // numbers), which settles it without `==`; any other row is compared with `==`.
    let size = MemoryLayout<Entity>.size
    let (aligned, edited) = base.elements.withUnsafeBufferPointer { before in
      value.elements.withUnsafeBufferPointer { after in
        var aligned = 0
        var edited: [Int] = []
        while aligned < min(before.count, after.count), baseIDs[aligned] == ids[aligned] {
          let (x, y) = (before.baseAddress! + aligned, after.baseAddress! + aligned)
          if memcmp(x, y, size) != 0, x.pointee != y.pointee { edited.append(aligned) }
          aligned += 1
        }
        return (aligned, edited)
      }
    }
    for index in edited {
      old[ids[index]] = try EntityDiff.encode(base[index])
      new[ids[index]] = try EntityDiff.encode(value[index])
    }
    guard aligned < max(baseIDs.count, ids.count) else { return (old, new) }
    var kept = aligned
    for entity in value[aligned...] {
      guard let before = base[id: entity.id] else {
        new[entity.id] = try EntityDiff.encode(entity)
        continue
      }
      kept += 1
      guard before != entity else { continue }
      old[entity.id] = try EntityDiff.encode(before)
      new[entity.id] = try EntityDiff.encode(entity)
    }
    // Every id of `base` is still there: nothing was removed.
    guard kept < base.count else { return (old, new) }
    for before in base[aligned...] where value[id: before.id] == nil {
      old[before.id] = try EntityDiff.encode(before)
    }
    return (old, new)
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
        let subscriber = lock.withLock {
          rejection = error
          lastDeliveredFailure = error
          return self.subscriber
        }
        subscriber?(.failure(error))
      }
    }
  }
}

// MARK: Sharing's continuations

/// A key forwards to these, converting the collection to its own value type (`Array` for the
/// array keys) on the way out and back on the way in.
extension CollectionSession {
  func load<Output>(_ continuation: LoadContinuation<Output>, as convert: @escaping @Sendable (Value) -> Output) {
    load { result in
      switch result {
      case .success(let value?): continuation.resume(returning: convert(value))
      case .success(nil): continuation.resumeReturningInitialValue()
      case .failure(let error): continuation.resume(throwing: error)
      }
    }
  }

  func subscribe<Output>(_ subscriber: SharedSubscriber<Output>, as convert: @escaping @Sendable (Value) -> Output) -> SharedSubscription {
    let delivery = delivery
    return SharedSubscription(subscribe { result in
      switch result {
      case .success(let value?): delivery.deliver { subscriber.yield(convert(value)) }
      case .success(nil): break
      case .failure(let error): delivery.deliver { subscriber.yield(throwing: error) }
      }
    })
  }

  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    save(value, context: context) { continuation.resume(with: $0) }
  }
}

