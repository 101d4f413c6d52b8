package import Foundation

/// Wall time read from a clock, so that a clock a test drives moves stamps and expiries as it
/// moves waits: the client's (`InstantClient(clock:)`) and the server's (`ServerClock`) both
/// read it here.
package enum WallTime {
  /// The system's time when `clock` is the system's (`ContinuousClock`, `SuspendingClock`);
  /// otherwise ``driven(by:startingAt:)`` from the system's time now.
  package static func reading(_ clock: any Clock<Duration>) -> @Sendable () -> Date {
    if clock is ContinuousClock || clock is SuspendingClock { return { Date() } }
    return driven(by: clock, startingAt: Date())
  }

  /// `date`, plus how far `clock` has moved since this call.
  package static func driven<C: Clock<Duration>>(by clock: C, startingAt date: Date) -> @Sendable () -> Date {
    let start = clock.now
    return { date.addingTimeInterval(start.duration(to: clock.now).seconds) }
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  package var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
