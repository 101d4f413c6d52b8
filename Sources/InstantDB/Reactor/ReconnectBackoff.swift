/// The reference client's reconnect delays: 0 s, then 1 s more after each failed attempt, at most
/// 10 s; back to 0 on `init-ok`.
struct ReconnectBackoff: Sendable {
  static let step: Duration = .seconds(1)
  static let maximum: Duration = .seconds(10)

  private(set) var current: Duration = .zero

  /// The delay before the next attempt; each call makes the following one longer.
  mutating func next() -> Duration {
    let delay = current
    current = min(current + Self.step, Self.maximum)
    return delay
  }

  mutating func reset() { current = .zero }
}
