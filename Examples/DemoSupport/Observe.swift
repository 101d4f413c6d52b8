import Foundation
import Observation

/// Waits until `condition` holds, re-checking it after every change of what it reads, and
/// returns how long that took; throws ``DemoTimeout`` after `timeout`.
@MainActor
public func until(
  _ what: String, timeout: Duration = .seconds(5), _ condition: @escaping @MainActor @Sendable () -> Bool
) async throws -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  let watcher = Task { @MainActor in
    for await holds in observe(condition) where holds { return true }
    return false
  }
  let timer = Task {
    try? await Task.sleep(for: timeout)
    watcher.cancel()
  }
  // A safety net for the one change `observe` can miss (see there): checked every 20 ms.
  let poller = Task { @MainActor in
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(20))
      if condition() { return watcher.cancel() }
    }
  }
  defer {
    timer.cancel()
    poller.cancel()
  }
  if await watcher.value || condition() { return clock.now - start }
  throw DemoTimeout(what: what, timeout: timeout)
}

/// `until` gave up.
public struct DemoTimeout: Error, CustomStringConvertible {
  public var what: String
  public var timeout: Duration
  public init(what: String, timeout: Duration) {
    self.what = what
    self.timeout = timeout
  }
  public var description: String { "\(what) did not happen within \(timeout)" }
}

/// The values of `read`: now, and after each change of what it reads.
///
/// `withObservationTracking` notifies *before* a value changes (will-set), and a `@Shared`
/// value may change on another thread. So after a notification `read` runs on the main actor
/// at once (usually after the change: the reference's lock makes it wait for a write in
/// progress), and again a millisecond later, when tracking is renewed, so a change whose
/// write had not begun yet is not missed. (A change whose notification fires in the instant
/// tracking is renewed can still be seen late, at the next change; ``until`` re-checks
/// periodically for that.) (Swift 6.2's `Observations` has did-set
/// semantics, but crashes with main-actor closures in this toolchain.)
@MainActor
func observe(_ read: @escaping @MainActor @Sendable () -> Bool) -> AsyncStream<Bool> {
  let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
  let tracker = Tracker(read: read, continuation: continuation)
  tracker.track()
  continuation.onTermination = { _ in Task { @MainActor in tracker.stopped = true } }
  return stream
}

@MainActor
private final class Tracker {
  let read: @MainActor () -> Bool
  let continuation: AsyncStream<Bool>.Continuation
  var stopped = false

  init(read: @escaping @MainActor () -> Bool, continuation: AsyncStream<Bool>.Continuation) {
    self.read = read
    self.continuation = continuation
  }

  func track() {
    guard !stopped else { return }
    continuation.yield(withObservationTracking(read) { [self] in
      Task { @MainActor in
        guard !self.stopped else { return }
        self.continuation.yield(self.read())
        try? await Task.sleep(for: .milliseconds(1))
        self.track()
      }
    })
  }
}
