import Foundation

/// A clock that moves only when a test advances it, and that says when something sleeps on it.
///
/// Unlike swift-clocks' `TestClock`, whose `checkSuspension()` yields many times before it looks
/// (slow when the whole suite shares two threads, so a test polling it could run out of time), a
/// sleeper is registered under the clock's lock before it suspends, and ``sleeping(atLeast:)``
/// resumes the moment one is: a test waits for a sleeper, advances, and knows which sleepers the
/// advance woke, with no polling and no timeout.
public final class ManualClock: Clock, @unchecked Sendable {
  public struct Instant: InstantProtocol, Hashable {
    /// The time since the clock was made.
    public var offset: Duration

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  // Safety: every stored var is read and written under `lock` only.
  private let lock = NSLock()
  private var _now = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var nextID = 0
  /// Sleepers cancelled before they were registered.
  private var cancelled: Set<Int> = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  public init() {}

  public var now: Instant { lock.withLock { _now } }
  public var minimumResolution: Duration { .zero }

  /// How many sleep on the clock now.
  public var sleeperCount: Int { lock.withLock { sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let (due, ready): (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
          if cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
          guard deadline > _now else { return (.success(()), []) }
          sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (nil, takeWaiters())
        }
        if let due { continuation.resume(with: due) }
        for waiter in ready { waiter.resume() }
      }
    } onCancel: {
      let sleeper: Sleeper? = lock.withLock {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
          cancelled.insert(id)
          return nil
        }
        return sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Returns once at least `count` sleep on the clock (at once if they do already).
  public func sleeping(atLeast count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now: Bool = lock.withLock {
        guard sleepers.count < count else { return true }
        waiters.append((count, continuation))
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Moves the clock on by `duration` and wakes every sleeper whose deadline it reached; returns
  /// how many it woke.
  @discardableResult
  public func advance(by duration: Duration) -> Int {
    let due: [Sleeper] = lock.withLock {
      _now = _now.advanced(by: duration)
      let due = sleepers.filter { $0.deadline <= _now }
      sleepers.removeAll { $0.deadline <= _now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
    return due.count
  }

  /// The waiters whose count is reached; called under `lock`.
  private func takeWaiters() -> [CheckedContinuation<Void, Never>] {
    let ready = waiters.filter { $0.count <= sleepers.count }.map(\.continuation)
    waiters.removeAll { $0.count <= sleepers.count }
    return ready
  }
}
