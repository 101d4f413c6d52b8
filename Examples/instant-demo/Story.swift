import CaseStudies
import DemoSupport
import ExampleSchema
import Foundation
import SharingInstant

/// The story `instant-demo` tells: clients A and B, each with its own `@Shared` keys, on one server.
///
/// Every step makes a change through one client's keys and waits (by observing the other
/// client's keys, as a SwiftUI view would) until the other sees it; the time between the write
/// and the other client's new value is the step's latency.
@MainActor
final class Story {
  let server: DemoServer
  let timeout: Duration
  let a: InstantClient
  let b: InstantClient
  var report = StoryReport()
  /// Todos this run created, deleted at the end so runs against a shared server leave nothing.
  var created: [Todo.ID] = []
  let clock = ContinuousClock()

  init(server: DemoServer, appID: String, timeout: Duration) {
    self.server = server
    self.timeout = timeout
    a = server.client(appID: appID)
    b = server.client(appID: appID)
  }

  /// Runs every step; returns whether all of them passed.
  func run() async -> Bool {
    print("instant-demo: clients A and B on \(server.summary)")
    defer { print("") }
    do {
      try await tell()
      print(report.summary())
      await finish()
      return true
    } catch let failure as StepFailure {
      report.failed(failure.title, error: failure.error)
      await finish()
      return false
    } catch {
      report.failed("(unexpected)", error: error)
      await finish()
      return false
    }
  }

  private func finish() async {
    await a.shutdown()
    await b.shutdown()
  }

  /// Models of client `client`, made the way an app makes them (the keys read `defaultInstant`).
  func on<Model>(_ client: InstantClient, _ make: () -> Model) -> Model {
    withDependencies { $0.defaultInstant = client } operation: { make() }
  }

  /// Runs `body` as the step `title`; a thrown error becomes the story's failure.
  func step(_ title: String, _ body: () async throws -> (latency: Duration?, detail: String?)) async throws {
    do {
      let (latency, detail) = try await body()
      report.passed(title, latency: latency, detail: detail)
    } catch {
      throw StepFailure(title: title, error: error)
    }
  }

  /// Makes a change with `write` and waits until `seen` holds; returns the time in between.
  func sync(_ what: String, write: () -> Void, seen: @escaping @MainActor () -> Bool) async throws -> Duration {
    let start = clock.now
    write()
    _ = try await until(what, timeout: timeout, seen)
    return clock.now - start
  }

  /// Waits until the server has acknowledged every write of `client`.
  func acknowledged(_ client: InstantClient, _ what: String) async throws {
    let deadline = clock.now + timeout
    while await !client.pendingWrites.allSatisfy({ $0.state == .synced }) {
      guard clock.now < deadline else { throw DemoTimeout(what: "\(what) acknowledged by the server", timeout: timeout) }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Waits for `condition` (no write involved).
  func wait(_ what: String, _ condition: @escaping @MainActor () -> Bool) async throws {
    _ = try await until(what, timeout: timeout, condition)
  }
}

struct StepFailure: Error {
  var title: String
  var error: any Error
}
