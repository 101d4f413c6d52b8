import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing

@testable import SharingInstant

/// The hook `animation:` is built on (SwiftUI's `withAnimation` cannot be compiled here): a key
/// hands every value from its subscription, and every error, through its delivery, in order.
@Suite("Key delivery", .timeLimit(.minutes(10)))
struct KeyDeliveryTests {
  @Test("Every value a sync key's subscription delivers goes through its delivery")
  func valuesGoThroughTheDelivery() async throws {
    try await KeysServer.withTwoClients { a, b in
      let delivered = Delivered()
      let delivery = KeyDelivery { yield in
        delivered.count()
        yield()
      }
      let todos = Shared(wrappedValue: [], InstantSyncKey(Schema.todos, client: a, delivery: delivery))
      try await eventually("loaded") { !todos.isLoading }
      let before = delivered.calls
      try await b.transact(.create("todos", .id(InstantID.make()), ["title": "From b", "done": false])).synced()
      try await eventually("b's todo arrives") { todos.wrappedValue.map(\.title) == ["From b"] }
      #expect(delivered.calls > before, "the new value came through the delivery")

      // A delivery that holds values back holds the key's changes back. (The first value comes
      // from the key's load, at once, as an animated GRDB key's does.)
      let held = HeldDeliveries()
      let slow = Shared(wrappedValue: [], InstantSyncKey(Schema.todos, client: b, kind: "held", delivery: KeyDelivery { held.add($0) }))
      try await eventually("the held key loaded") { slow.wrappedValue.map(\.title) == ["From b"] }
      let heldBefore = held.count
      try await a.transact(.create("todos", .id(InstantID.make()), ["title": "From a", "done": false])).synced()
      try await eventually("the change waits in the delivery") { held.count > heldBefore }
      #expect(slow.wrappedValue.map(\.title) == ["From b"], "nothing reaches the key until the delivery runs it")
      held.runAll()
      try await eventually("delivered") { Set(slow.wrappedValue.map(\.title)) == ["From a", "From b"] }
    }
  }
}

private final class Delivered: @unchecked Sendable {
  private let lock = NSLock()
  private var n = 0
  func count() { lock.withLock { n += 1 } }
  var calls: Int { lock.withLock { n } }
}

private final class HeldDeliveries: @unchecked Sendable {
  private let lock = NSLock()
  private var pending: [@Sendable () -> Void] = []
  func add(_ yield: @escaping @Sendable () -> Void) { lock.withLock { pending.append(yield) } }
  var count: Int { lock.withLock { pending.count } }
  func runAll() { for yield in lock.withLock({ pending }) { yield() } }
}
