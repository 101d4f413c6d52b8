import InstantDB
import SharingInstant
import Testing

@Suite("save() errors")
struct SaveErrorTests {
  @Test("save() throws when the key's last write could not be queued (here: the client was shut down)")
  func saveReportsAnUnqueuedWrite() async throws {
    let client = InstantClient.offline(appId: "save-error-test")
    let todos = Shared(.instantSync(Schema.todos, client: client))
    todos.withLock { $0.append(Todo(title: "queued")) }
    try await todos.save()
    await client.shutdown()
    todos.withLock { $0.append(Todo(title: "not queued")) }
    await #expect(throws: InstantClientError.self) { try await todos.save() }
    #expect(todos.saveError != nil)
  }
}
