import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing

@testable import SharingInstant

/// A key gives values under its reference's lock only once it knows the reference is its own
/// (docs/keys.md, "Which value an edit started from").
@Suite("A key takes only its own reference", .timeLimit(.minutes(10)))
struct ReferenceOwnershipTests {
  @Test("A key holds its `@Shared`'s reference once it has shown a result, before any edit")
  func takesItsOwnReference() async throws {
    try await KeysServer.withTwoClients { a, b in
      let key = InstantSyncKey(Schema.todos, client: b)
      let todos = Shared(wrappedValue: [], key)
      try await a.transact(.create("todos", .id(InstantID.make()), ["title": "x", "done": false])).synced()
      try await eventually("x arrives") { todos.wrappedValue.count == 1 }
      #expect(key.session.holdsReference, "the key holds the reference its `@Shared` made")
    }
  }

  @Test("Another key with the same id, subscribed beside the reference's own, never takes that reference")
  func anotherKeyWithTheSameID() async throws {
    // As when two threads make the first `@Shared` of one key at once: Sharing keeps one
    // reference, and the other key's subscription lives until its reference is dropped.
    try await KeysServer.withTwoClients { a, b in
      let own = InstantSyncKey(Schema.todos, client: b)
      let todos = Shared(wrappedValue: [], own)
      let x = Todo(title: "x")
      try await a.transact(.create("todos", .id(x.id), ["title": "x", "done": false])).synced()
      try await eventually("x arrives") { todos.wrappedValue.count == 1 }

      let other = InstantSyncKey(Schema.todos, client: b)
      #expect(other.id == own.id)
      let otherWrites = Locked<[[InstaMLOp]]>([])
      other.session.hooks.willWrite = { ops in otherWrites.withValue { $0.append(ops) } }
      let received = Locked<[IdentifiedArrayOf<Todo>]>([])
      let subscription = other.subscribe(
        context: .initialValue([]),
        subscriber: SharedSubscriber { result in
          if case .success(let value?) = result { received.withValue { $0.append(value) } }
        })
      try await eventually("the other key got x") { received.value.last?[id: x.id] != nil }

      // An edit through the `@Shared`, and another result for both keys.
      todos.withLock { $0[id: x.id]?.done = true }
      let y = InstantID.make()
      try await a.transact(.create("todos", .id(y), ["title": "y", "done": false])).synced()
      try await eventually("the other key got y") { received.value.last?[id: y] != nil }
      try await todos.save()
      subscription.cancel()

      #expect(!other.session.holdsReference, "the other key did not take the `@Shared`'s reference")
      #expect(otherWrites.value.isEmpty, "the other key wrote nothing: \(otherWrites.value)")
      try await allSynced(b)
      let rows = try await serverRows(a, "todos")
      #expect(Set(rows.compactMap { $0["id"]?.stringValue }) == [x.id, y])
      #expect(rows.first { $0["id"]?.stringValue == x.id }?["done"] == true)
      try await eventually("the `@Shared` shows both") { todos.wrappedValue.ids == [x.id, y] }
    }
  }
}
