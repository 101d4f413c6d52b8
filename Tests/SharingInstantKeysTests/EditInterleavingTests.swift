import Foundation
import InstantCore
import InstantDB
@testable import SharingInstant
import TestSupport
import Testing

/// A `withLock` edit sends exactly what its closure changed, whatever another device's result did
/// meanwhile. Each test forces one interleaving of that result with the edit through the key's
/// seams, not by sleeps (one test waits for the key to go quiet before it forces the interleaving):
/// the result reaches the key while the closure runs (and waits for Sharing's
/// lock), or it is shown after the closure returned and before the key's `save` looks at the edit.
/// Each also runs with the deliberately broken key (`hooks.unexchanged`: values set plainly, an edit
/// diffed against the value given last), which must destroy the other device's data: the proof
/// that the seam really puts the result inside the edit.
@Suite("An edit never destroys what arrived while it was made", .timeLimit(.minutes(10)))
struct EditInterleavingTests {
  @Test("A create elsewhere is not deleted", arguments: Interleaving.allCases, Run.allCases)
  func createElsewhere(_ interleaving: Interleaving, _ run: Run) async throws {
    try await KeysServer.withTwoClients { a, b in
      let x = Todo(title: "x")
      try await a.transact(.create("todos", .id(x.id), ["title": "x", "done": false])).synced()
      let y = InstantID.make()
      let (todos, key) = try await syncKey(Schema.todos, b, run) { $0.count == 1 }

      try await edit(todos, key, interleaving, run, change: {
        try await a.transact(.create("todos", .id(y), ["title": "y", "done": false])).synced()
      }, arrived: { $0[id: y] != nil }, { $0[id: x.id]?.done = true })

      try await allSynced(b)
      let rows = try await byID(serverRows(a, "todos"))
      #expect(rows[x.id]?["done"] == true)
      if run == .naive {
        #expect(rows[y] == nil, "the naive diff deletes y")
      } else {
        #expect(rows[y]?["title"] == "y")
        try await eventually("the key shows both") { todos.wrappedValue.ids == [x.id, y] }
      }
    }
  }

  @Test("An attribute changed elsewhere is not written back", arguments: Interleaving.allCases, Run.allCases)
  func attributeElsewhere(_ interleaving: Interleaving, _ run: Run) async throws {
    try await KeysServer.withTwoClients { a, b in
      let (x, w) = try await twoTodos(a, "x", "w")
      let (todos, key) = try await syncKey(Schema.todos, b, run) { $0.count == 2 }

      try await edit(todos, key, interleaving, run, change: {
        try await a.transact([
          .update("todos", .id(x.id), ["title": "x renamed"]), .update("todos", .id(w.id), ["title": "w renamed"]),
        ]).synced()
      }, arrived: { $0[id: w.id]?.title == "w renamed" }, { $0[id: x.id]?.done = true })

      try await allSynced(b)
      let rows = try await byID(serverRows(a, "todos"))
      #expect(rows[x.id]?["done"] == true)
      if run == .naive {
        #expect(rows[w.id]?["title"] == "w", "the naive diff writes w's old title back")
      } else {
        #expect(rows[x.id]?["title"] == "x renamed")
        #expect(rows[w.id]?["title"] == "w renamed")
      }
    }
  }

  @Test("An entity deleted elsewhere is not re-created", arguments: Interleaving.allCases, Run.allCases)
  func deletedElsewhere(_ interleaving: Interleaving, _ run: Run) async throws {
    try await KeysServer.withTwoClients { a, b in
      let (x, z) = try await twoTodos(a, "x", "z")
      let (todos, key) = try await syncKey(Schema.todos, b, run) { $0.count == 2 }

      try await edit(todos, key, interleaving, run, change: {
        try await a.transact(.delete("todos", .id(z.id))).synced()
      }, arrived: { $0[id: z.id] == nil }, { $0[id: x.id]?.done = true })

      try await allSynced(b)
      let rows = try await byID(serverRows(a, "todos"))
      #expect(rows[x.id]?["done"] == true)
      if run == .naive {
        #expect(rows[z.id] != nil, "the naive diff re-creates z")
      } else {
        #expect(rows[z.id] == nil)
      }
    }
  }

  @Test("A link moved elsewhere is not moved back", arguments: Interleaving.allCases, Run.allCases)
  func linkElsewhere(_ interleaving: Interleaving, _ run: Run) async throws {
    try await KeysServer.withTwoClients { a, b in
      let (one, two, p, q) = try await twoAuthorsTwoPosts(a)
      let (posts, key) = try await syncKey(Schema.posts.with(\.author), b, run) { $0.count == 2 }

      try await edit(posts, key, interleaving, run, change: {
        try await a.transact([
          .unlink("posts", .id(p), ["author": .string(one)]), .link("posts", .id(p), ["author": .string(two)]),
        ]).synced()
      }, arrived: { $0[id: p]?.author?.id == two }, { $0[id: q]?.content = "q, edited" })

      try await allSynced(b)
      let rows = try await byID(serverRows(a, "posts", ["author": [:]]))
      #expect(rows[q]?["content"] == "q, edited")
      if run == .naive {
        #expect(rows[p]?["author"]?["id"]?.stringValue == one, "the naive diff moves p back")
      } else {
        #expect(rows[p]?["author"]?["id"]?.stringValue == two)
      }
    }
  }

  @Test("A linked entity's attribute is not written through a nested key", arguments: Interleaving.allCases, Run.allCases)
  func linkedAttributeElsewhere(_ interleaving: Interleaving, _ run: Run) async throws {
    try await KeysServer.withTwoClients { a, b in
      let (one, _, p, q) = try await twoAuthorsTwoPosts(a)
      let (posts, key) = try await syncKey(Schema.posts.with(\.author), b, run) { $0.count == 2 }

      try await edit(posts, key, interleaving, run, change: {
        try await a.transact(.update("profiles", .id(one), ["handle": "one renamed"])).synced()
      }, arrived: { $0[id: q]?.author?.handle == "one renamed" }, { $0[id: p]?.content = "p, edited" })

      try await allSynced(b)
      let profiles = try await byID(serverRows(a, "profiles"))
      #expect(try await byID(serverRows(a, "posts"))[p]?["content"] == "p, edited")
      if run == .naive {
        #expect(profiles[one]?["handle"] == "one", "the naive diff writes the old handle back")
      } else {
        #expect(profiles[one]?["handle"] == "one renamed")
      }
    }
  }

  @Test("The edit's own changes are all sent, and a delete of a row the edit saw is sent", arguments: Interleaving.allCases, [Run.background, .mainThread])
  func ownChangesSent(_ interleaving: Interleaving, _ run: Run) async throws {
    try await KeysServer.withTwoClients { a, b in
      let x = Todo(title: "x")
      let gone = Todo(title: "gone")
      try await a.transact([
        .create("todos", .id(x.id), ["title": "x", "done": false]),
        .create("todos", .id(gone.id), ["title": "gone", "done": false]),
      ]).synced()
      let y = InstantID.make()
      let new = Todo(title: "new")
      let (todos, key) = try await syncKey(Schema.todos, b, run) { $0.count == 2 }

      try await edit(todos, key, interleaving, run, change: {
        try await a.transact(.create("todos", .id(y), ["title": "y", "done": false])).synced()
      }, arrived: { $0[id: y] != nil }, {
        $0[id: x.id]?.title = "x, edited"
        $0.remove(id: gone.id)
        $0.append(new)
      })

      try await allSynced(b)
      let rows = try await byID(serverRows(a, "todos"))
      #expect(Set(rows.keys) == [x.id, y, new.id])
      #expect(rows[x.id]?["title"] == "x, edited")
    }
  }

  @Test(
    "A row removed a moment after it arrived is deleted, whoever wrote it, while another result lands",
    arguments: Interleaving.allCases, Run.allCases)
  func deleteOfARowJustArrived(_ interleaving: Interleaving, _ run: Run) async throws {
    // `transact` then `withLock { remove }` at once, as a script or the tiles demo under a fast
    // hand does, while one more result lands inside the edit. The edit saw the row, so its delete
    // is the user's: written, whichever device made the row.
    for writer in ["this device", "another device"] {
      try await KeysServer.withTwoClients { a, b in
        let x = Todo(title: "x")
        try await a.transact(.create("todos", .id(x.id), ["title": "x", "done": false])).synced()
        let (todos, key) = try await syncKey(Schema.todos, b, run) { $0.count == 1 }
        let t = Todo(title: "t")
        try await (writer == "this device" ? b : a).transact(.create("todos", .id(t.id), ["title": "t", "done": false])).synced()
        try await eventually("t is shown") { todos.wrappedValue[id: t.id] != nil }
        // The results that follow t's write (its acknowledgement, the server's refresh) are shown
        // before the edit: one still on its way would hold the reference's lock in the forced
        // interleaving, waiting for a closure that waits for y.
        try await allSynced(b)
        try await quiet(key)
        let y = InstantID.make()

        try await edit(todos, key, interleaving, run, change: {
          try await a.transact(.create("todos", .id(y), ["title": "y", "done": false])).synced()
        }, arrived: { $0[id: y] != nil }, { $0.remove(id: t.id) })

        try await allSynced(b)
        let rows = try await byID(serverRows(a, "todos"))
        #expect(rows[t.id] == nil, "\(writer): the edit saw t and removed it")
        if run == .naive {
          #expect(rows[y] == nil, "the naive diff deletes y")
        } else {
          #expect(rows[y] != nil, "\(writer): y, which arrived during the edit, is kept")
        }
      }
    }
  }

  @Test("Two threads' edits, then a result, then their saves: one write of both, nothing else", arguments: [Run.background, .naive])
  func twoEditsBetweenResults(_ run: Run) async throws {
    // Both closures run before the key looks (their saves wait); a result from another device
    // then reaches the key. What the reference holds then is both edits on the value the key gave.
    try await KeysServer.withTwoClients { a, b in
      let (x, w) = try await twoTodos(a, "x", "w")
      let (todos, key) = try await syncKey(Schema.todos, b, run) { $0.count == 2 }
      let y = InstantID.make()
      let saving = Counter()
      let shown = Gate()
      let writes = Locked<[[InstaMLOp]]>([])
      key.session.hooks.willWrite = { ops in writes.withValue { $0.append(ops) } }
      key.session.hooks.didShow = { if $0[id: y] != nil { shown.open() } }
      key.session.hooks.willSave = { _ in
        saving.increment()
        try? shown.wait("the other device's result is shown")
      }
      async let first: Void = onThread { todos.withLock { $0[id: x.id]?.done = true } }
      async let second: Void = onThread { todos.withLock { $0[id: w.id]?.title = "w, edited" } }
      try await eventually("both edits reached their saves") { saving.value == 2 }
      try await a.transact(.create("todos", .id(y), ["title": "y", "done": false])).synced()
      try shown.wait("the other device's result is shown")
      _ = try await (first, second)
      key.session.hooks = .init(unexchanged: run == .naive)
      try await todos.save()

      try await allSynced(b)
      let rows = try await byID(serverRows(a, "todos"))
      if run == .naive {
        #expect(rows[y] == nil, "the naive diff deletes y")
        return
      }
      #expect(rows[x.id]?["done"] == true)
      #expect(rows[w.id]?["title"] == "w, edited")
      #expect(rows[y] != nil, "y, which arrived after both closures, is kept")
      let sent = writes.value
      #expect(sent.count == 1, "one write of both edits: \(sent)")
      #expect(!sent.joined().contains { $0.action == .delete || $0.action == .create }, "only the two updates: \(sent)")
      try await eventually("the key shows both edits and y") {
        todos.wrappedValue[id: x.id]?.done == true && todos.wrappedValue[id: w.id]?.title == "w, edited"
          && todos.wrappedValue[id: y] != nil
      }
    }
  }

  @Test("Two threads' edits saved in the opposite order of their closures keep both", arguments: [Run.background, .naive])
  func savesInOppositeOrder(_ run: Run) async throws {
    // Thread 1's closure sets x done; thread 2's closure, given thread 1's value, sets w done and
    // saves first; then thread 1 saves its value, which lacks w's change.
    try await KeysServer.withTwoClients { a, b in
      let (x, w) = try await twoTodos(a, "x", "w")
      let (todos, key) = try await syncKey(Schema.todos, b, run) { $0.count == 2 }
      let firstSaving = Gate()
      let secondSaved = Gate()
      key.session.hooks.willSave = { value in
        guard value[id: x.id]?.done == true, value[id: w.id]?.done == false else { return }
        firstSaving.open()
        try? secondSaved.wait("the second edit is saved")
      }
      async let first: Void = onThread { todos.withLock { $0[id: x.id]?.done = true } }
      try await onThread { try firstSaving.wait("the first edit reaches its save") }
      try await onThread { todos.withLock { $0[id: w.id]?.done = true } }
      secondSaved.open()
      try await first
      key.session.hooks = .init(unexchanged: run == .naive)
      try await todos.save()

      try await allSynced(b)
      let rows = try await byID(serverRows(a, "todos"))
      #expect(rows[x.id]?["done"] == true)
      if run == .naive {
        #expect(rows[w.id]?["done"] == false, "the naive diff undoes the second edit")
      } else {
        #expect(rows[w.id]?["done"] == true)
      }
    }
  }

  @Test("Reading back through a key whose reference does not exist makes nothing live")
  func strayReference() async throws {
    try await KeysServer.withTwoClients { a, _ in
      let key = InstantSyncKey(Schema.todos, client: a)
      let probe = ReferenceReadBack.Probe()
      _ = ReferenceReadBack.$probe.withValue(probe) { Shared(wrappedValue: [], key).wrappedValue }
      #expect(probe.madeStray, "the read-back made a new reference, and the probe says so")
      #expect(!key.session.isSubscribed, "the stray reference did not subscribe")
    }
  }

  // MARK: Helpers

  /// Who edits, and against what.
  enum Run: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A thread of its own, as a background task's edit.
    case background
    /// The main thread, as the README's `@MainActor @Observable` model's.
    case mainThread
    /// A thread of its own, with the deliberately broken key (`hooks.unexchanged`).
    case naive
    var testDescription: String { rawValue }
  }

  enum Interleaving: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The result reaches the key while the closure holds Sharing's lock; the reference takes it
    /// as soon as the closure returns, before the key's `save`.
    case resultDuringClosure
    /// The closure has returned; the result is shown before the key's `save` looks at the edit.
    case resultBeforeSave
    var testDescription: String { rawValue }
  }

  /// A sync key of `client` and the `@Shared` over it, once its value satisfies `loaded` and the key
  /// holds its reference (the broken key never does).
  private func syncKey<E: EntityIdentifiable & Equatable>(
    _ entityKey: EntityKey<E>, _ client: InstantClient, _ run: Run,
    loaded: @escaping @Sendable (IdentifiedArrayOf<E>) -> Bool
  ) async throws -> (Shared<IdentifiedArrayOf<E>>, InstantSyncKey<E>) {
    let key = InstantSyncKey(entityKey, client: client)
    key.session.hooks.unexchanged = run == .naive
    let shared = Shared(wrappedValue: [], key)
    try await eventually("loaded") { loaded(shared.wrappedValue) }
    if run != .naive { try await eventually("the key holds its reference") { key.session.holdsReference } }
    return (shared, key)
  }

  /// Makes `edit` through `shared` on a thread of its own while `change` (another device's
  /// write) reaches the key at the point `interleaving` names, then waits until the edit is queued.
  private func edit<E: EntityIdentifiable & Equatable>(
    _ shared: Shared<IdentifiedArrayOf<E>>, _ key: InstantSyncKey<E>, _ interleaving: Interleaving, _ run: Run,
    change: @escaping @Sendable () async throws -> Void,
    arrived: @escaping @Sendable (IdentifiedArrayOf<E>) -> Bool,
    _ edit: @escaping @Sendable (inout IdentifiedArrayOf<E>) -> Void
  ) async throws {
    let reached = Gate()
    let changed = Gate()
    let startChange: @Sendable () -> Void = {
      Task.detached {
        do { try await change() } catch { reached.fail("the other device's write failed: \(error)") }
      }
    }
    switch interleaving {
    case .resultDuringClosure:
      key.session.hooks.willShow = { if arrived($0) { reached.open() } }
      try await on(run) {
        try shared.withLock { value in
          edit(&value)
          startChange()
          try reached.wait("the other device's result reaches the key during the edit")
        }
      }
    case .resultBeforeSave:
      key.session.hooks.didShow = { if arrived($0) { reached.open() } }
      key.session.hooks.willSave = { _ in
        guard changed.openOnce() else { return }
        startChange()
        try? reached.wait("the other device's result is shown before the save")
      }
      try await on(run) { shared.withLock(edit) }
      try reached.wait("the other device's result is shown before the save")
    }
    key.session.hooks = .init(unexchanged: run == .naive)
    try await shared.save()
  }

  /// Returns once `key` has shown no value for 200 ms.
  private func quiet<E: EntityIdentifiable & Equatable>(_ key: InstantSyncKey<E>) async throws {
    let shows = Counter()
    key.session.hooks.didShow = { _ in shows.increment() }
    defer { key.session.hooks.didShow = nil }
    var last = -1
    while last != shows.value {
      last = shows.value
      try await Task.sleep(for: .milliseconds(200))
    }
  }

  /// Two not-done todos with these titles, written by `client`.
  private func twoTodos(_ client: InstantClient, _ first: String, _ second: String) async throws -> (Todo, Todo) {
    let (x, w) = (Todo(title: first), Todo(title: second))
    try await client.transact([
      .create("todos", .id(x.id), ["title": .string(first), "done": false]),
      .create("todos", .id(w.id), ["title": .string(second), "done": false]),
    ]).synced()
    return (x, w)
  }

  private func twoAuthorsTwoPosts(_ client: InstantClient) async throws -> (String, String, String, String) {
    let (one, two, p, q) = (InstantID.make(), InstantID.make(), InstantID.make(), InstantID.make())
    try await client.transact([
      .create("profiles", .id(one), ["handle": "one"]), .create("profiles", .id(two), ["handle": "two"]),
      .create("posts", .id(p), ["content": "p"]), .create("posts", .id(q), ["content": "q"]),
      .link("posts", .id(p), ["author": .string(one)]), .link("posts", .id(q), ["author": .string(one)]),
    ]).synced()
    return (one, two, p, q)
  }

  private func byID(_ rows: [JSON]) -> [String: JSON] {
    Dictionary(rows.map { ($0["id"]?.stringValue ?? "", $0) }, uniquingKeysWith: { first, _ in first })
  }
}

/// A value several threads read and change.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var _value: Value
  init(_ value: Value) { _value = value }
  var value: Value { lock.withLock { _value } }
  func withValue<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&_value) } }
}

/// A one-shot signal a blocked thread waits on, with a time limit (a missed interleaving fails
/// the test instead of hanging it).
final class Gate: @unchecked Sendable {
  private let condition = NSCondition()
  private var isOpen = false
  private var failure: String?
  private var opened = false

  func open() {
    condition.withLock { isOpen = true; condition.broadcast() }
  }

  func fail(_ reason: String) {
    condition.withLock { failure = reason; condition.broadcast() }
  }

  /// True the first time only.
  func openOnce() -> Bool {
    condition.withLock {
      defer { opened = true }
      return !opened
    }
  }

  func wait(_ what: String, timeout: TimeInterval = backstop.seconds) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    try condition.withLock {
      while !isOpen, failure == nil {
        guard condition.wait(until: deadline) else { throw NotInTime(what: what, timeout: .seconds(timeout)) }
      }
      if let failure { throw Failed(description: "\(what): \(failure)") }
    }
  }

  struct Failed: Error, CustomStringConvertible {
    var description: String
  }
}

/// Runs `body` on the main thread, or on a thread of its own (`unreadable` and `naive` too).
func on<T: Sendable>(_ run: EditInterleavingTests.Run, _ body: @escaping @Sendable () throws -> T) async throws -> T {
  guard run == .mainThread else { return try await onThread(body) }
  return try await MainActor.run { try body() }
}

/// Runs `body` on a thread of its own, outside Swift's cooperative pool, so it may block.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
