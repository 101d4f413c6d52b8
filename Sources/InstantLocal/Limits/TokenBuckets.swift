import InstantCore
import NIOConcurrencyHelpers

/// Token buckets by key (a client address, an app id): each holds up to `capacity` tokens and
/// gains `capacity` per `period`, continuously. Thread-safe; the clock is a parameter so tests
/// drive it.
///
/// Memory stays bounded by the keys active within one period: a bucket that has refilled whole is
/// the same as no bucket, so past ``pruneThreshold`` keys the full ones are dropped.
final class TokenBuckets: Sendable {
  let capacity: Double
  /// Tokens gained a second.
  let rate: Double
  private let now: @Sendable () -> Double
  private let state = NIOLockedValueBox([String: (tokens: Double, at: Double)]())
  static let pruneThreshold = 4_096

  /// - Parameters:
  ///   - capacity: the burst, and the tokens gained per `period`.
  ///   - now: seconds on a monotonic clock.
  init(capacity: Int, per period: Duration, now: @escaping @Sendable () -> Double) {
    self.capacity = Double(capacity)
    self.rate = Double(capacity) / period.seconds
    self.now = now
  }

  /// Takes a token for `key` when there is one (`nil`); otherwise takes nothing and answers how
  /// long until there is.
  func take(_ key: String) -> Duration? {
    let now = now()
    return state.withLockedValue { buckets in
      var tokens = refilled(buckets[key], now)
      guard tokens >= 1 else { return .seconds((1 - tokens) / rate) }
      tokens -= 1
      store(&buckets, key, tokens, now)
      return nil
    }
  }

  /// Takes a token for `key` whether or not there is one, and answers how long the caller must wait
  /// for its turn (zero when there was one): a queue, not a refusal. Tokens owed make later callers
  /// wait longer, so the rate holds however many wait.
  func reserve(_ key: String) -> Duration {
    let now = now()
    return state.withLockedValue { buckets in
      let tokens = refilled(buckets[key], now) - 1
      store(&buckets, key, tokens, now)
      return tokens >= 0 ? .zero : .seconds(-tokens / rate)
    }
  }

  /// Gives back a token taken by ``take(_:)`` or ``reserve(_:)`` (the work it allowed did not happen).
  func giveBack(_ key: String) {
    let now = now()
    state.withLockedValue { buckets in store(&buckets, key, refilled(buckets[key], now) + 1, now) }
  }

  /// How many keys have a bucket (tests).
  var count: Int { state.withLockedValue { $0.count } }

  private func refilled(_ bucket: (tokens: Double, at: Double)?, _ now: Double) -> Double {
    guard let bucket else { return capacity }
    return min(capacity, bucket.tokens + max(0, now - bucket.at) * rate)
  }

  private func store(_ buckets: inout [String: (tokens: Double, at: Double)], _ key: String, _ tokens: Double, _ now: Double) {
    buckets[key] = (tokens, now)
    guard buckets.count > Self.pruneThreshold else { return }
    buckets = buckets.filter { refilled($0.value, now) < capacity }
  }

}
