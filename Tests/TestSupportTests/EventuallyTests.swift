import TestSupport
import Testing

/// `eventually` is what every waiting test relies on to fail rather than hang.
@Suite("eventually", .timeLimit(.minutes(10)))
struct EventuallyTests {
  @Test("Returns the first value the condition gives")
  func returnsValue() async throws {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await eventually("a second check") { clock.now - start > .milliseconds(15) ? "late" : nil }
    #expect(value == "late")
  }

  @Test("A condition that never holds fails after the timeout, naming what was awaited")
  func timesOut() async throws {
    let error = await #expect(throws: NotInTime.self) {
      try await eventually("a thing that never happens", timeout: .milliseconds(50), detail: { "last: nothing" }) { false }
    }
    #expect(error?.description == "timed out after 0.05 seconds waiting for: a thing that never happens\nlast: nothing")
    // A closure of several statements that returns `false` is a condition too, not a value.
    await #expect(throws: NotInTime.self) {
      try await eventually("a condition of several statements", timeout: .milliseconds(50)) { @MainActor in
        if Bool.random() { return false }
        return false
      }
    }
  }

  @Test("A check that never returns fails after the timeout too")
  func checkNeverReturns() async throws {
    await #expect(throws: NotInTime.self) {
      try await eventually("a check that never returns", timeout: .milliseconds(50)) {
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        return true
      }
    }
  }

  @Test("What the condition throws ends the wait")
  func conditionThrows() async throws {
    struct Stop: Error {}
    await #expect(throws: Stop.self) {
      try await eventually("a check that throws") { () throws -> Bool in throw Stop() }
    }
  }
}
