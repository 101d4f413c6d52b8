import Observation

/// A change notification each time something `read` touches changes (`@Shared` values,
/// `@Observable` models), through Observation: what SwiftUI does for a view, for a terminal.
///
/// Changes that arrive while the consumer is busy are merged into one.
@MainActor
public func changes(of read: @escaping @MainActor () -> Void) -> AsyncStream<Void> {
  let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
  let tracker = ChangeTracker(read: read, continuation: continuation)
  tracker.track()
  continuation.onTermination = { _ in Task { @MainActor in tracker.stop() } }
  return stream
}

@MainActor
private final class ChangeTracker {
  let read: @MainActor () -> Void
  let continuation: AsyncStream<Void>.Continuation
  var stopped = false

  init(read: @escaping @MainActor () -> Void, continuation: AsyncStream<Void>.Continuation) {
    self.read = read
    self.continuation = continuation
  }

  func track() {
    guard !stopped else { return }
    withObservationTracking(read) { [self] in
      continuation.yield()
      Task { @MainActor in self.track() }
    }
  }

  func stop() { stopped = true }
}

/// Waits until `condition` holds, re-checking it whenever something it reads changes, and
/// returns how long that took; throws ``DemoTimeout`` after `timeout`.
@MainActor
public func until(
  _ what: String, timeout: Duration = .seconds(5), _ condition: @escaping @MainActor () -> Bool
) async throws -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  if condition() { return .zero }
  let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
  let tracker = ChangeTracker(read: { _ = condition() }, continuation: continuation)
  tracker.track()
  let timer = Task {
    try? await Task.sleep(for: timeout)
    continuation.finish()
  }
  defer {
    tracker.stop()
    timer.cancel()
  }
  for await _ in stream where condition() { return clock.now - start }
  if condition() { return clock.now - start }
  throw DemoTimeout(what: what, timeout: timeout)
}

/// `until` gave up.
public struct DemoTimeout: Error, CustomStringConvertible {
  public var what: String
  public var timeout: Duration
  public var description: String { "\(what) did not happen within \(timeout)" }
}
