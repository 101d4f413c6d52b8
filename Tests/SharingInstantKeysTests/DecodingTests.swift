import InstantCore
import InstantDB
import SharingInstant
import Testing

@Suite("Results that do not decode", .timeLimit(.minutes(1)))
struct DecodingTests {
  @Test("An entity that does not decode is reported in loadError, the others are kept")
  func reportedNotDropped() async throws {
    try await KeysServer.withTwoClients { a, b in
      let good = InstantID.make()
      let bad = InstantID.make()
      try await b.transact([
        .create("todos", .id(good), ["title": "fine", "done": false]),
        .create("todos", .id(bad), ["done": false]),
      ]).synced()
      let todos = Shared(.instantSync(Schema.todos, client: a))
      try await eventually("the good todo and the error") { todos.wrappedValue.count == 1 && todos.loadError != nil }
      let error = try #require(todos.loadError as? EntityDecodingError)
      #expect(error.failures.map(\.id) == [bad])
      #expect(todos.wrappedValue.ids == [good])
    }
  }
}
