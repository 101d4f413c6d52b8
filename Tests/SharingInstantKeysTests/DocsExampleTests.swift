import SharingInstant
import Testing

/// The example of `docs/keys.md`, compiled and run against an offline client.
@Suite("docs/keys.md example")
struct DocsExampleTests {
  @Test("The example compiles, and its edit is queued as one update")
  func example() async throws {
    let client = InstantClient.offline(appId: "docs-example")
    try await withDependencies { $0.defaultInstant = client } operation: {
      @Shared(.instantSync(Schema.todos.where(\.done, .eq(false)).orderBy(\.title, .asc).limit(20)))
      var todos: IdentifiedArrayOf<Todo> = []
      @SharedReader(.instantQuery(Schema.posts.with(\.author) { $0.with(\.posts) { $0.limit(3) } }))
      var posts: IdentifiedArrayOf<Post> = []

      let todo = Todo(title: "Write docs")
      $todos.withLock { $0.append(todo) }
      try await $todos.save()
      $todos.withLock { $0[id: todo.id]?.done = true }
      try await $todos.save()
      if let error = $todos.loadError { Issue.record(error) }
      #expect(posts.isEmpty)
    }
    let pending = await client.pendingWrites
    #expect(pending.count == 2)
    await client.shutdown()
  }
}
