import Foundation

/// Wall time as the client's clock tells it, so that the clock a test passes moves the client's
/// stamps as it moves its waits.
enum WallTime {
  /// The system's time when `clock` is the system's (`ContinuousClock`, `SuspendingClock`);
  /// otherwise the time now plus how far `clock` has moved since this call.
  static func reading(_ clock: any Clock<Duration>) -> @Sendable () -> Date {
    if clock is ContinuousClock || clock is SuspendingClock { return { Date() } }
    return derived(from: clock, startingAt: Date())
  }

  private static func derived<C: Clock<Duration>>(from clock: C, startingAt date: Date) -> @Sendable () -> Date {
    let start = clock.now
    return {
      let (seconds, attoseconds) = start.duration(to: clock.now).components
      return date.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
  }
}
