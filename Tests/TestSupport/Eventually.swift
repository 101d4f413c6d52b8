import Foundation

/// Waits until `condition` gives a value, checking it at once and then every `interval`, and
/// returns that value.
///
/// Throws ``NotInTime`` naming `what` (the thing awaited, such as `"bob sees the todo"`) when
/// `timeout` passes first, followed by `detail()` (what the test saw last, evaluated then), and
/// rethrows what `condition` throws. It times out by itself even when a check never returns:
/// Swift Testing's `.timeLimit` does not end a test awaiting something that never resumes, so the
/// checks run in a task of their own, which is cancelled and left behind at the timeout.
public func eventually<Value: Sendable>(
  _ what: String,
  timeout: Duration = backstop,
  every interval: Duration = .milliseconds(10),
  isolation: isolated (any Actor)? = #isolation,
  detail: () -> String = { "" },
  _ condition: @escaping @Sendable () async throws -> Value?
) async throws -> Value {
  let race = Race<Value>()
  let outcome = await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      race.start(continuation)
      race.own(
        Task {
          do {
            while true {
              if let value = try await condition() { return race.end(.value(value)) }
              try await Task.sleep(for: interval)
            }
          } catch {
            race.end(.failure(error))
          }
        })
      race.own(
        Task {
          try? await Task.sleep(for: timeout)
          race.end(.timedOut)
        })
    }
  } onCancel: {
    race.end(.failure(CancellationError()))
  }
  switch outcome {
  case .value(let value): return value
  case .failure(let error): throw error
  case .timedOut: throw NotInTime(what: what, timeout: timeout, detail: detail())
  }
}

/// ``eventually(_:timeout:every:isolation:detail:_:)`` for a condition that holds or not.
public func eventually(
  _ what: String,
  timeout: Duration = backstop,
  every interval: Duration = .milliseconds(10),
  isolation: isolated (any Actor)? = #isolation,
  detail: () -> String = { "" },
  _ condition: @escaping @Sendable () async throws -> Bool
) async throws {
  try await eventually(what, timeout: timeout, every: interval, isolation: isolation, detail: detail) {
    try await condition() ? () : nil
  }
}

/// What ``eventually(_:timeout:every:isolation:detail:_:)`` throws when the time is up.
public struct NotInTime: Error, CustomStringConvertible {
  /// The thing awaited.
  public var what: String
  /// How long it was awaited.
  public var timeout: Duration
  /// What the test saw last, or empty.
  public var detail: String

  public init(what: String, timeout: Duration, detail: String = "") {
    self.what = what
    self.timeout = timeout
    self.detail = detail
  }

  public var description: String {
    "timed out after \(timeout) waiting for: \(what)" + (detail.isEmpty ? "" : "\n\(detail)")
  }
}

/// The first of the checks' end, the timeout and the waiter's cancellation, and the tasks to
/// cancel once it is known.
///
/// `@unchecked Sendable`: every access to its state holds `lock`.
private final class Race<Value: Sendable>: @unchecked Sendable {
  enum Outcome {
    case value(Value)
    case failure(any Error)
    case timedOut
  }

  private let lock = NSLock()
  private var continuation: CheckedContinuation<Outcome, Never>?
  /// An outcome that came before the continuation (a cancellation as the wait began).
  private var early: Outcome?
  private var ended = false
  private var tasks: [Task<Void, Never>] = []

  func start(_ continuation: CheckedContinuation<Outcome, Never>) {
    let early: Outcome? = lock.withLock {
      if self.early == nil { self.continuation = continuation }
      return self.early
    }
    if let early { continuation.resume(returning: early) }
  }

  /// Keeps `task` to cancel at the end, or cancels it now if the race has ended.
  func own(_ task: Task<Void, Never>) {
    let ended = lock.withLock {
      if !self.ended { tasks.append(task) }
      return self.ended
    }
    if ended { task.cancel() }
  }

  /// Ends the race with `outcome` unless it has ended already.
  func end(_ outcome: Outcome) {
    let (continuation, tasks): (CheckedContinuation<Outcome, Never>?, [Task<Void, Never>]) = lock.withLock {
      guard !ended else { return (nil, []) }
      ended = true
      if self.continuation == nil { early = outcome }
      defer { self.continuation = nil; self.tasks = [] }
      return (self.continuation, self.tasks)
    }
    continuation?.resume(returning: outcome)
    for task in tasks { task.cancel() }
  }
}
