import TestSupport
import Testing

/// `ManualClock` is what the timing tests wait on: it must wake exactly the sleepers due, say when
/// one sleeps, and let a cancelled one go.
@Suite("ManualClock", .timeLimit(.minutes(10)))
struct ManualClockTests {
  @Test("A sleeper wakes when the clock reaches its deadline, not a moment before")
  func wakesAtTheDeadline() async throws {
    let clock = ManualClock()
    let woke = Locked(false)
    let sleeper = Task {
      try await clock.sleep(for: .seconds(2))
      woke.withLock { $0 = true }
    }
    await clock.sleeping()
    #expect(clock.sleeperCount == 1)
    #expect(clock.advance(by: .milliseconds(1_999)) == 0)
    #expect(clock.sleeperCount == 1)
    #expect(clock.advance(by: .milliseconds(1)) == 1)
    try await sleeper.value
    #expect(woke.withLock { $0 })
    #expect(clock.sleeperCount == 0)
  }

  @Test("sleeping(atLeast:) waits for that many sleepers; a deadline already reached does not sleep")
  func countsSleepers() async throws {
    let clock = ManualClock()
    clock.advance(by: .seconds(5))
    try await clock.sleep(until: clock.now)
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
    let sleepers = (1...3).map { seconds in Task { try await clock.sleep(for: .seconds(seconds)) } }
    await clock.sleeping(atLeast: 3)
    #expect(clock.advance(by: .seconds(2)) == 2)
    #expect(clock.sleeperCount == 1)
    #expect(clock.advance(by: .seconds(1)) == 1)
    for sleeper in sleepers { try await sleeper.value }
  }

  @Test("A cancelled sleeper throws CancellationError and leaves the clock")
  func cancellation() async {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.sleeping()
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
    #expect(clock.advance(by: .seconds(1)) == 0)
  }
}
