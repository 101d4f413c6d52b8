import Foundation
import InstantCore
@testable import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing

/// The server's one clock (``ServerClock``, `InstantLocalConfiguration.clock`): what the server
/// stamps, expires and waits by. Each test gives a real server on loopback a clock that moves only
/// when the test advances it, starting in 2030 — so a stamp or expiry read from the system's clock
/// instead (2026) shows, and nothing depends on how fast the machine is.
@Suite(.timeLimit(.minutes(10)))
struct ServerClockTests {
  /// 2030-03-17T17:46:40Z.
  static let start = Date(timeIntervalSince1970: 1_900_000_000)

  static func configuration(_ clock: ManualClock) -> InstantLocalConfiguration {
    var configuration = InstantLocalConfiguration.testing()
    configuration.clock = ServerClock(clock, wallTimeAtStart: start)
    return configuration
  }

  @Test("What the server stamps is the clock's time: a user made after 90 s says so")
  func stamps() async throws {
    let clock = ManualClock()
    try await withInstantLocal(configuration: Self.configuration(clock)) { server in
      clock.advance(by: .seconds(90))
      let (status, body) = try await server.signInGuest()
      #expect(status == 200)
      #expect(body["user"]?["created_at"] == "2030-03-17T17:48:10.000Z")
    }
  }

  @Test("A magic code expires when the server's clock passes its expiry, and not before")
  func magicCodeExpiry() async throws {
    let clock = ManualClock()
    var configuration = Self.configuration(clock)
    configuration.magicCodeExpiry = .seconds(600)
    try await withInstantLocal(configuration: configuration) { server in
      func code(_ email: String) async throws -> String {
        #expect(try await server.sendMagicCode(email: email).0 == 200)
        return try #require(await server.lastMagicCode(appID: TestSession.appID, email: email))
      }
      let early = try await code("early@example.com")
      clock.advance(by: .seconds(600))
      #expect(try await server.verifyMagicCode(email: "early@example.com", code: early).0 == 200)

      let late = try await code("late@example.com")
      clock.advance(by: .seconds(601))
      let (status, refusal) = try await server.verifyMagicCode(email: "late@example.com", code: late)
      #expect(status == 400)
      #expect(refusal["message"]?.stringValue?.contains("expired") == true, "\(refusal)")
    }
  }

  /// The sweep sleeps on the server's clock: the test waits until it sleeps, advances, and waits
  /// until it sleeps again — which it does only once its pass is over. No polling, no deadline.
  @Test("The file sweep runs on the server's clock: a blob is kept for the grace period, then removed")
  func sweepRunsOnTheClock() async throws {
    let clock = ManualClock()
    var configuration = Self.configuration(clock)
    configuration.fileGracePeriod = .seconds(3600)
    try await withInstantLocal(configuration: configuration) { server in
      let location = UUID().uuidString.lowercased()
      let blob = server.blobFile(appID: TestSession.appID, locationID: location)
      try FileManager.default.createDirectory(at: blob.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("orphan".utf8).write(to: blob)
      // A blob no row names, queued now (as a deleted file's blob is).
      try await server.files.storage.queueFileSweep(appID: TestSession.appID, locationID: location, at: server.configuration.clock.nowMillis)

      await clock.sleeping()
      #expect(clock.advance(by: .seconds(60)) == 1, "the sweep's one-minute sleep")
      await clock.sleeping()
      #expect(FileManager.default.fileExists(atPath: blob.path), "inside the grace period")

      #expect(clock.advance(by: .seconds(3600)) == 1)
      await clock.sleeping()
      #expect(!FileManager.default.fileExists(atPath: blob.path), "past the grace period")
    }
  }
}
