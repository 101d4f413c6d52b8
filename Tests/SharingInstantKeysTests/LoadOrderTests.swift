import InstantCore
import InstantDB
import SharingInstant
import TestSupport
import Testing

/// A key's load and its live subscription run on separate tasks. Under load the load's first
/// (older) result could reach the reference after the subscription's newer one and overwrite it:
/// the key then showed an empty collection, not loading and without error, until the next change.
@Suite("Load order", .timeLimit(.minutes(10)))
struct LoadOrderTests {
  @Test("Keys made while the other client's rows arrive all end with those rows", arguments: 0..<6)
  func loadNeverOverwritesANewerResult(run: Int) async throws {
    for round in 0..<3 {
      try await KeysServer.withTwoClients { a, b in
        let writer = Shared(.instantSync(Schema.todos, client: a))
        writer.withLock {
          $0.append(Todo(title: "b"))
          $0.append(Todo(title: "a"))
        }
        try await writer.save()
        // Made at once, so their first results race the server's refresh with A's rows.
        let query = Schema.todos.where(\.done, .eq(false)).orderBy(\.title, .asc)
        let synced = Shared<IdentifiedArrayOf<Todo>>(.instantSync(query, client: b))
        let array = Shared<[Todo]>(.instantSync(query, client: b))
        let read = SharedReader<IdentifiedArrayOf<Todo>>(.instantQuery(query, client: b))
        let counts: @Sendable () -> [Int] = { [synced.wrappedValue.count, array.wrappedValue.count, read.wrappedValue.count] }
        do {
          try await eventually("every key shows both rows") { counts() == [2, 2, 2] }
        } catch {
          Issue.record("run \(run), round \(round): \(counts())")
          throw error
        }
      }
    }
  }
}
