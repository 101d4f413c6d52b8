import Dependencies
import SharingInstant
import Testing

@Suite("Configuration")
struct ConfigurationTests {
  @Test("The test value is an offline client: writes queue, nothing connects")
  func testValueIsOffline() async throws {
    let client = withDependencies { _ in } operation: {
      @Dependency(\.defaultInstant) var instant
      return instant
    }
    #expect(client.appId == "test-app-id")
    let todos = Shared(.instantSync(Schema.todos, client: client))
    todos.withLock { $0.append(Todo(title: "Offline")) }
    try await todos.save()
    let pending = await client.pendingWrites
    #expect(pending.count == 1)
    let status = await client.status
    #expect(status != .authenticated)
    await client.shutdown()
  }

  @Test("prepareDependencies-style override: keys use the configured client")
  func overrideIsUsed() async throws {
    let configured = InstantClient.offline(appId: "configured")
    let key = withDependencies { $0.defaultInstant = configured } operation: {
      InstantSyncKey<Todo>.Default.instantSync(Schema.todos)
    }
    let todos = Shared(key)
    todos.withLock { $0.append(Todo(title: "Here")) }
    try await todos.save()
    let pending = await configured.pendingWrites
    #expect(pending.count == 1)
    await configured.shutdown()
  }
}
