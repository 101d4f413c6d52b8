import Foundation
import InstantCore
import TestSupport
import Testing
internal import OrderedCollections

@testable import InstantDB

/// The client waits on the clock it is given, so its timing is checked by advancing a ManualClock
/// instead of sleeping.
@Suite("The client's clock", .timeLimit(.minutes(10)))
struct ClientClockTests {
  /// A transport that refuses every connection and counts the attempts.
  final class Refusing: WebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var attempts: Int { lock.withLock { count } }

    func connect(to url: URL) async throws -> any WebSocketConnection {
      lock.withLock { count += 1 }
      throw WebSocketTransportError("refused")
    }
  }

  static func client(_ transport: any WebSocketTransport, _ clock: ManualClock) -> InstantClient {
    InstantClient(
      appId: LocalServer.appID, apiURI: URL(string: "http://127.0.0.1:9")!,
      websocketURI: URL(string: "ws://127.0.0.1:9/runtime/session")!, storage: .memory, transport: transport,
      clock: clock)
  }

  @Test("Reconnecting waits 0 s, then 1 s more after each refusal, at most 10 s, on the client's clock")
  func reconnectBackoff() async throws {
    let clock = ManualClock()
    let transport = Refusing()
    let db = Self.client(transport, clock)
    defer { Task { await db.shutdown() } }
    try await eventually("two attempts at once: the first reconnect waits 0 s") { transport.attempts == 2 }
    for (index, seconds) in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10].enumerated() {
      try await eventually("the client waits on its clock") { await clock.sleeping(); return true }
      #expect(clock.advance(by: .seconds(seconds) - .milliseconds(1)) == 0, "no attempt \(seconds) s minus 1 ms after the last")
      #expect(transport.attempts == index + 2, "no attempt \(seconds) s minus 1 ms after the last")
      #expect(clock.advance(by: .milliseconds(1)) == 1)
      try await eventually("the attempt after \(seconds) s") { transport.attempts == index + 3 }
    }
  }

  @Test("A write is stamped by the client's clock: made 90 s on, its created time says so")
  func writesAreStampedByTheClock() async throws {
    let clock = ManualClock()
    let before = Date().timeIntervalSince1970 * 1000
    let db = Self.client(Refusing(), clock)
    let after = Date().timeIntervalSince1970 * 1000
    defer { Task { await db.shutdown() } }
    clock.advance(by: .seconds(90))
    try await db.transact(.update("notes", .id(InstantID.make()), ["v": 1]))
    let created = try #require(await db.pendingWrites.first?.created)
    #expect(created >= (before + 90_000).rounded(.down) && created <= (after + 90_000).rounded(.up), "\(created - before)")
  }
}
