import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

/// A custom request, as the original library let callers define.
private struct OpenTodosRequest: SharingInstantSync.KeyCollectionRequest {
  var configuration: SharingInstantSync.CollectionConfiguration<Todo> {
    .init(orderBy: .asc("title"), whereClause: ["done": false])
  }
}

/// The seeds' other forms of the collection keys: configurations, custom requests, `Array` values.
@Suite("Configuration, request and Array keys", .timeLimit(.minutes(10)))
struct ConfigurationKeyTests {
  @Test("A configuration becomes the typed key: where, order, limit and links all reach the query")
  func configurationIsTheTypedKey() {
    let configuration = SharingInstantSync.CollectionConfiguration<Todo>(
      orderBy: .desc("title"), whereClause: ["done": false], includedLinks: ["owner"], limit: 5)
    let typed = Schema.todos.where(\.done, .eq(false)).orderBy(\.title, .desc).limit(5).with("owner")
    #expect(configuration.entityKey.instaQL == typed.instaQL)
    #expect(configuration.namespace == "todos")
    #expect(OrderBy.asc("a") == OrderBy(field: "a", isDescending: false))
  }

  @Test("An Array sync key writes like the IdentifiedArray one; the other client's Array query key follows")
  func arrayValues() async throws {
    try await KeysServer.withTwoClients { a, b in
      let mine = Shared<[Todo]>(.instantSync(Schema.todos.orderBy(\.title, .asc), client: a))
      let theirs = SharedReader<[Todo]>(.instantQuery(Schema.todos.orderBy(\.title, .asc), client: b))
      let milk = Todo(title: "Milk")
      mine.withLock { $0 += [milk, Todo(title: "Eggs")] }
      try await mine.save()
      try await eventually("B's array shows both, in order") { theirs.wrappedValue.map(\.title) == ["Eggs", "Milk"] }
      mine.withLock { $0.removeAll { $0.id == milk.id } }
      try await mine.save()
      try await eventually("B sees the delete") { theirs.wrappedValue.map(\.title) == ["Eggs"] }
      // Two entries with one id: the later one is the entity.
      let eggs = mine.wrappedValue[0]
      mine.withLock { $0.append(Todo(id: eggs.id, title: "Brown eggs")) }
      try await mine.save()
      try await eventually("B sees the later entry") { theirs.wrappedValue.map(\.title) == ["Brown eggs"] }
    }
  }

  @Test("Configuration and request keys, IdentifiedArray and Array, sync and query, all show the same rows")
  func configurationAndRequestKeys() async throws {
    try await KeysServer.withTwoClients { a, b in
      let writer = Shared(.instantSync(Schema.todos, client: a))
      writer.withLock {
        $0.append(Todo(title: "b"))
        $0.append(Todo(title: "a"))
        $0.append(Todo(title: "done", done: true))
      }
      try await writer.save()
      let configuration = SharingInstantSync.CollectionConfiguration<Todo>(orderBy: .asc("title"), whereClause: ["done": false])
      let synced = Shared<IdentifiedArrayOf<Todo>>(.instantSync(configuration: configuration, client: b))
      let array = Shared<[Todo]>(.instantSync(configuration: configuration, client: b))
      let requested = Shared<IdentifiedArrayOf<Todo>>(.instantSync(OpenTodosRequest(), client: b))
      let requestedArray = SharedReader<[Todo]>(.instantQuery(OpenTodosRequest(), client: b))
      let queried = SharedReader<IdentifiedArrayOf<Todo>>(.instantQuery(configuration: configuration, client: b))
      let forms: @Sendable () -> [[String]] = {
        [synced.wrappedValue.map(\.title), array.wrappedValue.map(\.title), requested.wrappedValue.map(\.title),
         requestedArray.wrappedValue.map(\.title), queried.wrappedValue.map(\.title)]
      }
      do {
        try await eventually("every form shows a, b") { forms().allSatisfy { $0 == ["a", "b"] } }
      } catch {
        Issue.record("\(error): \(forms()); errors: \([synced.loadError, array.loadError, requested.loadError, requestedArray.loadError, queried.loadError].map { $0.map { "\($0)" } ?? "-" })")
        throw error
      }
      // A write through the request key reaches the configuration key on the same client.
      requested.withLock { $0[0].done = true }
      try await requested.save()
      try await eventually("a is done everywhere") {
        synced.wrappedValue.map(\.title) == ["b"] && array.wrappedValue.map(\.title) == ["b"]
      }
    }
  }
}
