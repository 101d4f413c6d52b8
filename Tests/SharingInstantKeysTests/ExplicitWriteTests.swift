import InstantCore
import InstantDB
import SharingInstant
import Testing

@Suite("Explicit writes", .timeLimit(.minutes(1)))
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
}
