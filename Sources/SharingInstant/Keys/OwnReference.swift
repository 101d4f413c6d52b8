import Dependencies
import Foundation

/// How a key finds, and then holds, the reference behind its own `@Shared`, so that it can put a
/// value in under that reference's lock and see, in the same step, what the app's `withLock`
/// closures left there (see `CollectionSession`, `PresenceSession` and docs/keys.md).
///
/// The key reads itself back in the dependencies its reference was made in (Sharing keeps one
/// reference per key id, so this finds the key's own), then asks the reference found whether it is
/// its own: an empty `withLock` makes Sharing save through that reference's key, and only the
/// key's own reference saves to it (``saveIsProbe()``). Another key with the same id, made at the
/// same moment on another thread, has a session of its own.
///
/// It shares its key's lock (recursive: the probe's save comes back on the same thread), so that
/// a save from another thread waits until the probe is over instead of being taken for it. Every
/// mutable property is read and written under that lock, which makes `@unchecked Sendable` sound.
final class OwnReference<Owner: AnyObject, Value>: @unchecked Sendable {
  private let lock: NSRecursiveLock
  /// Makes the `@Shared` over a key with this session again; `nil` for a key no edit reaches.
  private let readBack: (@Sendable (Owner) -> Shared<Value>)?
  /// The key's session, which the read-back makes a key over (weak: it holds this).
  private weak var owner: Owner?
  /// The dependencies the reference was made in, where reading it back finds it.
  private var dependencies: DependencyValues.Continuation?
  private var reference: HeldReference<Value>?
  private var probing = false
  private var probeReached = false
  /// Whether `subscribe` has returned to the reference being made (Sharing files the reference
  /// under its id right after).
  private var subscribed = false

  /// `readBack` makes the `@Shared` over a key with the given session; ``attach(_:)`` names the
  /// session once it is made.
  init(lock: NSRecursiveLock, readBack: (@Sendable (Owner) -> Shared<Value>)?) {
    self.lock = lock
    self.readBack = readBack
  }

  /// The session whose key this is: called at the end of its `init`.
  func attach(_ owner: Owner) { lock.withLock { self.owner = owner } }

  /// The reference, once held.
  var held: HeldReference<Value>? { lock.withLock { reference } }

  /// Keeps the dependencies the reference is being made in (a key's `load` and `subscribe` run
  /// inside its making), so that reading it back later, from any thread, looks where it was put.
  func captureDependencies() {
    lock.withLock {
      if dependencies == nil { dependencies = withEscapedDependencies { $0 } }
    }
  }

  /// `subscribe` has returned: the reference is filed, and reading back finds it.
  func markSubscribed() { lock.withLock { subscribed = true } }

  /// The reference is gone (a weak hold found nothing): values go in plainly from now on.
  func release() { lock.withLock { reference = nil } }

  /// Holds `reference` (found by ``find()`` at a first save).
  func hold(_ reference: HeldReference<Value>) { lock.withLock { self.reference = reference } }

  /// Called first by the key's `save`: whether this save is the key's own question to a reference
  /// it found (and so no edit).
  func saveIsProbe() -> Bool {
    lock.withLock {
      if probing { probeReached = true }
      return probing
    }
  }

  /// The reference reading back finds, or `nil` when reading made a new one (see
  /// ``ReferenceReadBack``) or the key is read-only.
  func find() -> HeldReference<Value>? {
    let (dependencies, owner) = lock.withLock { (self.dependencies, self.owner) }
    guard let readBack, let owner else { return nil }
    let probe = ReferenceReadBack.Probe()
    let shared: Shared<Value> = ReferenceReadBack.$probe.withValue(probe) {
      guard let dependencies else { return readBack(owner) }
      return dependencies.yield { readBack(owner) }
    }
    return probe.madeStray ? nil : HeldReference(shared)
  }

  /// Finds the key's reference, unless it holds it already or `subscribe` has not returned yet,
  /// and holds it if it is the key's own. Outside the key's lock: making a reference takes
  /// Sharing's lock, then the key's, in `load` and `subscribe`.
  func adopt() {
    guard lock.withLock({ reference == nil && subscribed && readBack != nil }) else { return }
    guard let found = find() else { return }
    lock.withLock {
      guard reference == nil else { return }
      (probing, probeReached) = (true, false)
      defer { probing = false }
      guard found.withLock({ _ in }), probeReached else { return }
      reference = found
    }
  }
}
