import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

/// The seed's failures (`05-SyncArchitectureAnalysis.md`), each against instant-local with two
/// clients. Each fails on the seed's design, which diffed a key's value against *server state*.
@Suite("withLock writes never delete what the key cannot see", .timeLimit(.minutes(10)))
struct WritePathTests {
  @Test("Ghost deletion: a narrower key over the same namespace deletes nothing it does not show")
  func ghostDeletion() async throws {
    // Naive design: `onlyAlice` saves [alice]; the server has [alice, bob]; bob is "deleted".
    try await KeysServer.withTwoClients { a, b in
      let (alice, bob, all, onlyAlice) = try await aliceAndBob(a, b)

      onlyAlice.withLock { $0[id: alice.id]?.bio = "hello" }
      try await onlyAlice.save()
      try await allSynced(a)

      let rows = try await serverRows(b, "profiles")
      #expect(Set(rows.compactMap { $0["handle"]?.stringValue }) == ["alice", "bob"])
      #expect(rows.first { $0["id"]?.stringValue == alice.id }?["bio"] == "hello")
      try await eventually("the wide key shows the edit and still shows bob") {
        all.wrappedValue[id: alice.id]?.bio == "hello" && all.wrappedValue[id: bob.id] != nil
      }
    }
  }

  @Test("Two keys over one namespace saving at once keep both edits and delete nothing")
  func twoKeysSavingAtOnce() async throws {
    // Naive design: each save diffs its own view against the same server state; the narrow
    // key's save deletes carol (just added by the wide key) and bob.
    try await KeysServer.withTwoClients { a, b in
      let (alice, _, all, onlyAlice) = try await aliceAndBob(a, b)

      let carol = Profile(handle: "carol")
      async let first: Void = Task { all.withLock { $0.append(carol) } }.value
      async let second: Void = Task { onlyAlice.withLock { $0[id: alice.id]?.bio = "both" } }.value
      _ = await (first, second)
      try await all.save()
      try await onlyAlice.save()
      try await allSynced(a)

      let rows = try await serverRows(b, "profiles")
      #expect(Set(rows.compactMap { $0["handle"]?.stringValue }) == ["alice", "bob", "carol"])
      #expect(rows.first { $0["id"]?.stringValue == alice.id }?["bio"] == "both")
    }
  }

  @Test("Resurrection: an edit of an entity deleted elsewhere does not bring it back, and is reported")
  func noResurrection() async throws {
    // Naive design: the edited value still holds the todo the server no longer has, so the diff
    // "creates" it again. Here the edit is a strict update of one attribute, which the server
    // refuses; the key rolls back and reports the refusal.
    try await KeysServer.withTwoClients(expectingErrors: ["the server rejected a write: Updating entities that don't exist", "a write of todos was refused: Updating entities that don't exist"]) { a, b in
      let gone = Todo(title: "Delete me")
      let other = Todo(title: "Stay")
      try await b.transact([
        .create("todos", .id(gone.id), ["title": "Delete me", "done": false]),
        .create("todos", .id(other.id), ["title": "Stay", "done": false]),
      ]).synced()
      let todos = Shared(.instantSync(Schema.todos, client: a))
      try await eventually("loaded") { todos.wrappedValue.count == 2 }

      await a.setNetworkAvailable(false)
      todos.withLock { $0[id: gone.id]?.done = true }
      try await todos.save()
      try await b.transact(.delete("todos", .id(gone.id))).synced()
      await a.setNetworkAvailable(true)

      try await eventually("the refused edit is reported on the key") { todos.loadError != nil }
      try await eventually("the deleted todo leaves the key") { todos.wrappedValue.ids == [other.id] }
      let rows = try await serverRows(b, "todos")
      #expect(rows.compactMap { $0["id"]?.stringValue } == [other.id])

      // A later edit through the key does not bring it back either.
      todos.withLock { $0.append(Todo(title: "New")) }
      try await todos.save()
      try await allSynced(a)
      let after = try await serverRows(b, "todos")
      #expect(Set(after.compactMap { $0["title"]?.stringValue }) == ["Stay", "New"])
    }
  }

  @Test("Permissions: an edit the app's rules refuse is rolled back and reported as permission-denied")
  func refusedByRules() async throws {
    let rules: JSON = ["todos": ["allow": ["update": "size(newData.title) <= 10", "delete": "false"]]]
    let refused = ["the server rejected a write: Permission denied", "a write of todos was refused: Permission denied"]
    try await KeysServer.withTwoClients(rules: rules, expectingErrors: refused) { a, b in
      let milk = Todo(title: "Milk")
      try await b.transact(.create("todos", .id(milk.id), ["title": "Milk", "done": false])).synced()
      let todos = Shared(.instantSync(Schema.todos, client: a))
      try await eventually("loaded") { todos.wrappedValue.ids == [milk.id] }

      todos.withLock { $0[id: milk.id]?.title = "Milk, eggs, flour and butter" }
      try await eventually("the refusal is reported on the key") { todos.loadError != nil }
      let error = try #require(todos.loadError as? InstantClientError)
      #expect(error.isPermissionDenied)
      try await eventually("the edit is rolled back") { todos.wrappedValue[id: milk.id]?.title == "Milk" }

      todos.withLock { $0.removeAll() }
      try await eventually("the delete is rolled back") { todos.wrappedValue.ids == [milk.id] }
      #expect(try await serverRows(b, "todos").compactMap { $0["title"]?.stringValue } == ["Milk"])

      // What the rules allow still goes through.
      todos.withLock { $0[id: milk.id]?.title = "Oat milk" }
      try await todos.save()
      try await allSynced(a)
      #expect(try await serverRows(b, "todos").compactMap { $0["title"]?.stringValue } == ["Oat milk"])
    }
  }

  @Test("Editing a post with an embedded author does not re-send the author's other posts")
  func embeddedAuthor() async throws {
    // Naive design: saving the post traverses author → author.posts and writes every post it
    // holds, so p2's stale content overwrites b's edit.
    try await KeysServer.withTwoClients { a, b in
      let alice = InstantID.make()
      let p1 = InstantID.make()
      let p2 = InstantID.make()
      try await b.transact([
        .create("profiles", .id(alice), ["handle": "alice"]),
        .create("posts", .id(p1), ["content": "one"]),
        .create("posts", .id(p2), ["content": "two"]),
        .link("posts", .id(p1), ["author": .string(alice)]),
        .link("posts", .id(p2), ["author": .string(alice)]),
      ]).synced()
      let posts = Shared(.instantSync(Schema.posts.with(\.author) { $0.with(\.posts) }, client: a))
      try await eventually("loaded with the author's posts") {
        posts.wrappedValue[id: p1]?.author?.posts?.count == 2
      }

      await a.setNetworkAvailable(false)
      posts.withLock { $0[id: p1]?.content = "one, edited" }
      try await posts.save()
      try await b.transact(.update("posts", .id(p2), ["content": "two, edited by b"])).synced()
      await a.setNetworkAvailable(true)
      try await allSynced(a)

      let rows = try await serverRows(b, "posts", ["author": [:]])
      let contents = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"]!.stringValue!, $0["content"]!.stringValue!) })
      #expect(contents == [p1: "one, edited", p2: "two, edited by b"])
      #expect(rows.allSatisfy { $0["author"]?["id"]?.stringValue == alice })
    }
  }

  @Test("limit reaches the sync query, and editing a limited view deletes nothing beyond it")
  func limit() async throws {
    // The seed's sync key dropped `limit` and returned every todo; a diff against server state
    // would then treat the rows outside the limit as the user's to delete.
    try await KeysServer.withTwoClients { a, b in
      try await b.transact(["a", "b", "c"].map { .create("todos", .id(InstantID.make()), ["title": .string($0), "done": false]) })
        .synced()
      let firstTwo = Shared(.instantSync(Schema.todos.orderBy(\.title, .asc).limit(2), client: a))
      try await eventually("loaded") { firstTwo.wrappedValue.map(\.title) == ["a", "b"] }

      firstTwo.withLock { $0[0].done = true }
      try await firstTwo.save()
      try await allSynced(a)
      let rows = try await serverRows(b, "todos")
      #expect(rows.count == 3)
      #expect(rows.filter { $0["done"] == true }.compactMap { $0["title"]?.stringValue } == ["a"])
    }
  }

  /// Alice and Bob on the server (written by `b`), and two keys of `a`: every profile, and Alice's.
  private func aliceAndBob(_ a: InstantClient, _ b: InstantClient) async throws
    -> (Profile, Profile, Shared<IdentifiedArrayOf<Profile>>, Shared<IdentifiedArrayOf<Profile>>)
  {
    let alice = Profile(handle: "alice")
    let bob = Profile(handle: "bob")
    try await b.transact([
      .create("profiles", .id(alice.id), ["handle": "alice"]), .create("profiles", .id(bob.id), ["handle": "bob"]),
    ]).synced()
    let all = Shared(.instantSync(Schema.profiles, client: a))
    let onlyAlice = Shared(.instantSync(Schema.profiles.where(\.handle, .eq("alice")), client: a))
    try await eventually("both keys loaded") { all.wrappedValue.count == 2 && onlyAlice.wrappedValue.count == 1 }
    return (alice, bob, all, onlyAlice)
  }
}
