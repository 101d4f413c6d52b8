import Foundation
import InstantCore
internal import OrderedCollections
import TestSupport
import Testing

@testable import InstantDB

@Suite("Query subscriptions", .timeLimit(.minutes(10)))
struct QuerySubscriptionTests {
  @Test("An iteration that ends before its subscribe has run leaves no query live")
  func unsubscribeAfterSubscribe() async throws {
    let client = offlineClient()
    defer { Task { await client.shutdown() } }
    // The subscribe is held until the iteration has ended and its unsubscribe has started (or,
    // when the unsubscribe rightly waits for the subscribe, until 200 ms have passed).
    let unsubscribing = AsyncGate()
    client.reactor.subscriptionHooks.beforeUnsubscribe = { unsubscribing.open() }
    client.reactor.subscriptionHooks.beforeSubscribe = { await unsubscribing.wait(upTo: .milliseconds(200)) }
    _ = client.subscribe(["todos": [:]]).makeAsyncIterator()
    try await expectNoLiveQuery(client, after: 1)
  }

  @Test("An iteration that ends at once leaves no query live, whichever of its subscribe and unsubscribe runs first")
  func shortLivedIterations() async throws {
    let client = offlineClient()
    defer { Task { await client.shutdown() } }
    for n in 0..<300 {
      // Made and dropped without iterating: its stream terminates at once.
      _ = client.subscribe(["todos": ["$": ["where": ["n": .number(Double(n))]]]]).makeAsyncIterator()
    }
    try await expectNoLiveQuery(client, after: 300)
  }

  private func offlineClient() -> InstantClient {
    InstantClient(
      appId: InstantID.make(), apiURI: URL(string: "http://127.0.0.1:1")!,
      websocketURI: URL(string: "ws://127.0.0.1:1/runtime/session")!, storage: .memory)
  }

  /// Waits until `count` subscribes and unsubscribes have finished, then expects no query left.
  private func expectNoLiveQuery(_ client: InstantClient, after count: Int) async throws {
    let hooks = client.reactor.subscriptionHooks
    // Alone this takes a fraction of a second; under the whole suite on two cores the 600 small
    // tasks wait their turn for tens of seconds (CI saw over 20, and over 50 once the suite grew),
    // so the wait is generous: what is checked is that none is left live, not how fast they run.
    try await eventually("every subscribe and unsubscribe ran", every: .milliseconds(5)) {
      hooks.finished == (count, count)
    }
    let live = await client.reactor.queries.byKey.count
    #expect(live == 0, "\(live) queries are still live after their iterations ended")
  }
}

/// Opens once; `wait(upTo:)` returns when it is open or the time is up.
final class AsyncGate: @unchecked Sendable {
  private let lock = NSLock()
  private var isOpen = false

  func open() { lock.withLock { isOpen = true } }

  func wait(upTo limit: Duration) async {
    try? await eventually("the gate opens", timeout: limit, every: .milliseconds(1)) { self.lock.withLock { self.isOpen } }
  }
}
