public import ExampleSchema
import Foundation
public import Observation
public import SharingInstant

/// The Sync case study: a todo list every device edits at once.
///
/// Everything goes through one `@Shared(.instantSync(…))` key: edits show at once, are queued on
/// disk, and reach every other client in milliseconds; nothing here talks to the network.
@MainActor
@Observable
public final class TodosModel {
  /// Every todo, oldest first.
  @ObservationIgnored
  @Shared(.instantSync(Schema.todos.orderBy(\.createdAt, .asc)))
  public var todos: IdentifiedArrayOf<Todo> = []

  /// Creates the model on `DependencyValues.defaultInstant` (use `withDependencies` for another client).
  public init() {}

  /// Adds an open todo at the end of the list; an empty title adds nothing.
  @discardableResult
  public func add(_ title: String) -> Todo? {
    let title = title.trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { return nil }
    let createdAt = max(Date().timeIntervalSince1970 * 1000, (todos.last?.createdAt ?? 0) + 1)
    let todo = Todo(title: title, done: false, createdAt: createdAt)
    $todos.withLock { _ = $0.append(todo) }
    return todo
  }

  /// Marks `id` done or open again.
  public func toggle(_ id: Todo.ID) {
    $todos.withLock { $0[id: id]?.done.toggle() }
  }

  /// Renames `id`.
  public func rename(_ id: Todo.ID, to title: String) {
    $todos.withLock { $0[id: id]?.title = title }
  }

  /// Deletes `id` (everywhere: the key's diff turns a removed row into a `delete`).
  public func remove(_ id: Todo.ID) {
    $todos.withLock { _ = $0.remove(id: id) }
  }

  /// Deletes every done todo.
  public func clearCompleted() {
    $todos.withLock { $0.removeAll(where: \.done) }
  }

  /// How many are not done.
  public var remaining: Int { todos.count { !$0.done } }

  /// A write the server refused (rolled back) or a row that did not decode; `nil` when all is well.
  public var error: (any Error)? { $todos.loadError }

  /// Resumes once every edit so far is queued on disk.
  public func save() async throws { try await $todos.save() }
}
