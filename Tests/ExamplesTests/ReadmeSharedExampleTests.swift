import DemoSupport
import ExampleSchema
import Foundation
import Observation
import SharingInstant
import Testing

// The README's `@Shared` example, as written there.
@MainActor @Observable
final class OpenTodos {
  // Live: your edits show at once and are queued on disk; everyone else's arrive in milliseconds.
  @ObservationIgnored
  @Shared(.instantSync(Schema.todos.where(\.done, .eq(false)).orderBy(\.createdAt, .desc).limit(50)))
  var todos: IdentifiedArrayOf<Todo> = []

  func add(_ title: String) {                          // one `create`
    let todo = Todo(title: title, done: false, createdAt: Date().timeIntervalSince1970 * 1000)
    $todos.withLock { _ = $0.append(todo) }
  }
  func finish(_ id: Todo.ID) { $todos.withLock { $0[id: id]?.done = true } }  // one `update` of `done`
  func remove(_ id: Todo.ID) { $todos.withLock { _ = $0.remove(id: id) } }    // one `delete`
  var problem: (any Error)? { $todos.loadError }       // a write the server refused, rolled back
}

@Suite("README @Shared example", .timeLimit(.minutes(10)))
@MainActor
struct ReadmeSharedExampleTests {
  @Test("Two devices with the README's model: adds, finishes and removes reach the other")
  func twoDevices() async throws {
    try await withTwoClients { a, b in
      let phone = withDependencies { $0.defaultInstant = a } operation: { OpenTodos() }
      let laptop = withDependencies { $0.defaultInstant = b } operation: { OpenTodos() }
      phone.add("Buy milk")
      phone.add("Call mom")
      _ = try await seen("the laptop sees both, newest first") { laptop.todos.map(\.title) == ["Call mom", "Buy milk"] }
      let milk = try #require(laptop.todos.first { $0.title == "Buy milk" })
      laptop.finish(milk.id)
      _ = try await seen("a finished todo leaves the open list on the phone") { phone.todos.map(\.title) == ["Call mom"] }
      phone.remove(phone.todos[0].id)
      _ = try await seen("the laptop's list is empty") { laptop.todos.isEmpty }
      #expect(phone.problem == nil && laptop.problem == nil)
    }
  }
}
