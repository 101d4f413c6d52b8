import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

@Suite("Explicit writes", .timeLimit(.minutes(10)))
struct ExplicitWriteTests {
  @Test("$todos.create/update/delete reach the other client")
  func collectionHelpers() async throws {
    try await KeysServer.withTwoClients { a, b in
      let mine = Shared(.instantSync(Schema.todos, client: a))
      let theirs = Shared(.instantSync(Schema.todos, client: b))
      try await eventually("both loaded") { !mine.isLoading && !theirs.isLoading }

      let todo = Todo(title: "Run")
      try await mine.create(todo)
      try await eventually("created on b") { theirs.wrappedValue[id: todo.id]?.title == "Run" }
      try await mine.update(id: todo.id) { $0.done = true }
      try await eventually("updated on b") { theirs.wrappedValue[id: todo.id]?.done == true }
      try await mine.delete(id: todo.id)
      try await eventually("deleted on b") { theirs.wrappedValue.isEmpty }
    }
  }

  @Test("Generated-style mutations go through transact")
  func mutations() async throws {
    try await KeysServer.withTwoClients { a, b in
      let id = InstantID.make()
      try await a.transact(
        InstantMutation(.create, namespace: "todos", id: id, arguments: ["title": "Swim", "done": false]),
        InstantMutation(.update, namespace: "todos", id: id, arguments: ["done": true])
      ).synced()
      let rows = try await serverRows(b, "todos")
      #expect(rows.map { $0["done"] } == [true])
      try await a.transact([InstantMutation(.delete, namespace: "todos", id: id)]).synced()
      let after = try await serverRows(b, "todos")
      #expect(after.isEmpty)
    }
  }

  @Test("$posts.link/unlink by key path and by label: the other client's keys follow, and nothing is deleted")
  func linkAndUnlink() async throws {
    try await KeysServer.withTwoClients { a, b in
      let alice = Profile(handle: "alice")
      let bob = Profile(handle: "bob")
      let post = Post(content: "hello")
      let profiles = Shared(.instantSync(Schema.profiles, client: a))
      let posts = Shared(.instantSync(Schema.posts.with(\.author), client: a))
      let theirPosts = Shared(.instantSync(Schema.posts.with(\.author), client: b))
      let theirProfiles = Shared(.instantSync(Schema.profiles.with(\.posts), client: b))
      try await eventually("loaded") {
        !profiles.isLoading && !posts.isLoading && !theirPosts.isLoading && !theirProfiles.isLoading
      }
      try await profiles.create(alice)
      try await profiles.create(bob)
      try await posts.create(post)

      // A has-one link by key path. (This device's posts key shows alice once the server
      // answers: as in the reference client, a query's optimistic view is its own server result
      // plus pending writes, and that result did not hold alice yet.)
      try await posts.link(id: post.id, \.author, to: alice.id, client: a)
      try await eventually("a's key shows alice as the author") { posts.wrappedValue[id: post.id]?.author?.handle == "alice" }
      try await eventually("b sees alice as the author") { theirPosts.wrappedValue[id: post.id]?.author?.id == alice.id }
      try await eventually("and the post among alice's posts") {
        theirProfiles.wrappedValue[id: alice.id]?.posts?.map(\.id) == [post.id]
      }

      // Linking a has-one link again moves it.
      try await posts.link(id: post.id, \.author, to: bob.id, client: a)
      try await eventually("b sees bob as the author") { theirPosts.wrappedValue[id: post.id]?.author?.id == bob.id }
      #expect(theirProfiles.wrappedValue[id: alice.id]?.posts ?? [] == [])

      // A has-many link from the other side, by key path, then unlinked by label.
      let second = Post(content: "again")
      try await posts.create(second)
      try await profiles.link(id: alice.id, \.posts, to: [second.id], client: a)
      try await eventually("b sees alice's second post") {
        theirProfiles.wrappedValue[id: alice.id]?.posts?.map(\.id) == [second.id]
      }
      try await profiles.unlink(id: alice.id, "posts", from: [second.id], client: a)
      try await posts.unlink(id: post.id, \.author, from: bob.id, client: a)
      try await eventually("b sees both links gone") {
        theirPosts.wrappedValue.allSatisfy { $0.author == nil } && theirPosts.wrappedValue.count == 2
      }
      #expect(theirProfiles.wrappedValue.count == 2, "unlinking deletes no profile")
      #expect(try await serverRows(b, "posts").count == 2, "nor any post")
    }
  }
}
