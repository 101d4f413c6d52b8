import Clocks
import InstantCore
public import Foundation

/// The one clock of an ``InstantLocalServer``: everything that stamps (`created_at`, a
/// transaction's time), expires (magic codes, signed file URLs, OAuth flows, ID tokens) or
/// waits (shutdown grace, presence pacing, heartbeats, polls, rate-limit refills) in the server's
/// own code reads it. (The WebSocket ping and the SQLite checkpoint timer run on their libraries'
/// timers; log lines carry the system's time.)
///
/// ``live`` is the system's. A test gives the server a clock it drives (a `TestClock`, or any
/// `Clock` whose time moves only when the test advances it) with ``init(_:wallTimeAtStart:)``:
/// then a magic code expires, a file URL goes stale and a rate limit refills exactly when the
/// test says, however slow the machine. Such a clock ends no wait until it is advanced: presence
/// pacing, for one, holds a socket's later frames until it moves.
public struct ServerClock: Sendable {
  /// What waits run on; monotonic.
  let monotonic: AnyClock<Duration>
  /// Wall time now.
  private let wall: @Sendable () -> Date
  /// The instant ``seconds`` counts from.
  private let origin: AnyClock<Duration>.Instant

  /// The system's clock: wall time from `Date()`, waits on `ContinuousClock`.
  public static var live: ServerClock {
    ServerClock(monotonic: AnyClock(ContinuousClock()), wall: { Date() })
  }

  /// A clock driven by `clock`: waits are sleeps on it, and wall time is `wallTimeAtStart`
  /// plus the time `clock` has advanced since this call.
  public init(_ clock: some Clock<Duration>, wallTimeAtStart: Date) {
    let monotonic = AnyClock(clock)
    self.init(monotonic: monotonic, wall: WallTime.driven(by: monotonic, startingAt: wallTimeAtStart))
  }

  private init(monotonic: AnyClock<Duration>, wall: @escaping @Sendable () -> Date) {
    self.monotonic = monotonic
    self.wall = wall
    origin = monotonic.now
  }

  /// Wall time now: what stamps and expiries compare with.
  public var now: Date { wall() }

  /// Wall time now in milliseconds since 1970, as the store stamps it.
  var nowMillis: Double { (now.timeIntervalSince1970 * 1000).rounded() }

  /// Seconds on the monotonic clock since this clock was made (what rate-limit buckets refill by).
  var seconds: Double { origin.duration(to: monotonic.now).seconds }

  /// Waits `duration` on the monotonic clock; throws `CancellationError` when the task is cancelled.
  func sleep(for duration: Duration) async throws {
    try await monotonic.sleep(for: duration)
  }
}
