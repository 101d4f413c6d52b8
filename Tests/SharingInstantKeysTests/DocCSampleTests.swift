import Foundation
import InstantLocalTesting
import Observation
import SharingInstant
import TestSupport
import Testing
import InstantLocal

// The Swift samples of `Sources/SharingInstant/SharingInstant.docc`, compiled and run here against
// instant-local. Each `docc:begin <Article>/<name>` … `docc:end` block is, without its common
// indentation, exactly one ```swift block of `<Article>.md`; `DocCCatalogTests` checks that the two
// stay the same. Apart from Foundation, Observation and the test libraries, this file imports what
// an app imports (`SharingInstant`), so a sample cannot lean on a module an app would not have.
//
// Where an article says `prepareDependencies { $0.defaultInstant = … }`, the test scopes the same
// override with `withDependencies` (a process may call prepareDependencies only once).

// MARK: - Stand-ins for generated code

// docc:begin GettingStarted/model
@MainActor @Observable
final class TodoList {
  @ObservationIgnored
  @Shared(.instantSync(Schema.todos.where(\.done, .eq(false)).orderBy(\.title, .asc)))
  var todos: IdentifiedArrayOf<Todo> = []

  func add(_ title: String) { $todos.withLock { _ = $0.append(Todo(title: title)) } }
  func finish(_ id: Todo.ID) { $todos.withLock { $0[id: id]?.done = true } }
  var problem: (any Error)? { $todos.loadError }
}
// docc:end

// docc:begin Syncing/request
struct OpenTodos: SharingInstantSync.KeyCollectionRequest {
  var configuration: SharingInstantSync.CollectionConfiguration<Todo> {
    .init(orderBy: .asc("title"), whereClause: ["done": false])
  }
}
// docc:end

// docc:begin Presence/generated
struct ChatPresence: Codable, Sendable, Equatable {
  var name: String
  var isTyping = false
}

extension Schema {
  enum Rooms {
    static let chat = RoomKey<ChatPresence>(type: "chat")
  }
}
// docc:end

// docc:begin Topics/generated
struct ChatReaction: Codable, Sendable, Equatable {
  var emoji: String
}

extension Schema {
  enum Topics {
    enum Chat {
      static let reactions = TopicKey<ChatReaction>(roomType: "chat", topic: "reactions")
    }
  }
}
// docc:end

/// Creates todos (title, done) through `client` and waits until the server has them.
private func writeTodos(_ todos: [(String, Bool)], with client: InstantClient) async throws {
  try await client.transact(
    todos.map { title, done in .create("todos", .id(Todo(title: title).id), ["title": .string(title), "done": .bool(done)]) }
  ).synced()
}

/// The todos `client` reads from the server now, as (title, done), by title.
private func serverTodos(_ client: InstantClient) async throws -> [Pair] {
  try await serverRows(client, "todos").compactMap { row in
    row["title"]?.stringValue.map { Pair($0, row["done"] == true) }
  }.sorted { $0.title < $1.title }
}

private struct Pair: Equatable, CustomStringConvertible {
  var title: String
  var done: Bool
  init(_ title: String, _ done: Bool = false) { (self.title, self.done) = (title, done) }
  var description: String { "\(title)\(done ? " (done)" : "")" }
}

/// Waits until a key has its first value, and a little longer. A collection key's initial load
/// and its subscription deliver results independently, so under load the load's older result can
/// land after a newer one and put the key back to it until the query changes again (a library
/// race, see the change's report); a test that edits the key right away would edit the stale value.
private func settled<Value>(_ shared: Shared<Value>) async throws {
  try await eventually("loaded") { !shared.isLoading }
  try await Task.sleep(for: .milliseconds(100))
}

// MARK: - The articles

@Suite("DocC samples", .timeLimit(.minutes(10)))
struct DocCSampleTests {
  // MARK: GettingStarted

  @Test("GettingStarted: a key's withLock edit reaches another device")
  func gettingStartedFirstKey() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin GettingStarted/firstKey
        @Shared(.instantSync(Schema.todos.orderBy(\.title, .asc)))
        var todos: IdentifiedArrayOf<Todo> = []

        $todos.withLock { _ = $0.append(Todo(title: "Buy milk")) }
        try await $todos.save()
        // docc:end
        #expect(todos.map(\.title) == ["Buy milk"])
      }
      try await eventually("the other device sees it") { try await serverTodos(otherDevice) == [Pair("Buy milk")] }
    }
  }

  @Test("GettingStarted: the observable model adds and finishes todos on both devices")
  func gettingStartedModel() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      let list = await MainActor.run { withDependencies { $0.defaultInstant = client } operation: { TodoList() } }
      try await settled(list.$todos)
      // Shown at once, on this device (in append order until the key's next result orders them).
      let shown = await MainActor.run {
        list.add("Walk")
        list.add("Read")
        return Set(list.todos.map(\.title))
      }
      #expect(shown == ["Walk", "Read"])
      try await eventually("added on the other device") { try await serverTodos(otherDevice) == [Pair("Read"), Pair("Walk")] }
      let walk = try #require(await list.todos.first { $0.title == "Walk" })
      await list.finish(walk.id)
      try await eventually("finished on the other device") {
        try await serverTodos(otherDevice) == [Pair("Read"), Pair("Walk", true)]
      }
      try await eventually("the open list drops it") { await list.todos.map(\.title) == ["Read"] }
      #expect(await list.problem == nil)
    }
  }

  // MARK: Syncing

  @Test("Syncing: withLock edits become a create, an update and a delete on the other device")
  func syncingEdits() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Syncing/declare
        @Shared(.instantSync(Schema.todos.orderBy(\.title, .asc)))
        var todos: IdentifiedArrayOf<Todo> = []
        // docc:end
        try await settled($todos)

        // docc:begin Syncing/edits
        let milk = Todo(title: "Milk")
        $todos.withLock { _ = $0.append(milk) }                 // create
        $todos.withLock { _ = $0.append(Todo(title: "Eggs")) }  // create
        $todos.withLock { $0[id: milk.id]?.done = true }        // update of `done` alone
        try await $todos.save()                                 // the writes are queued on disk
        // docc:end
        try await eventually("both todos, milk done") {
          try await serverTodos(otherDevice) == [Pair("Eggs"), Pair("Milk", true)]
        }

        // docc:begin Syncing/remove
        $todos.withLock { _ = $0.remove(id: milk.id) }          // delete
        try await $todos.save()
        // docc:end
        try await eventually("milk deleted") { try await serverTodos(otherDevice) == [Pair("Eggs")] }
        #expect($todos.loadError == nil)
      }
    }
  }

  @Test("Syncing: a filtered key deletes only what it shows")
  func syncingFilteredView() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await writeTodos([("Open", false), ("Done", true)], with: otherDevice)
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Syncing/filtered
        @Shared(.instantSync(Schema.todos.where(\.done, .eq(false))))
        var open: IdentifiedArrayOf<Todo> = []
        // docc:end
        let openRef = $open
        try await eventually("loaded") { openRef.wrappedValue.map(\.title) == ["Open"] }
        // docc:begin Syncing/clear
        $open.withLock { $0.removeAll() }   // deletes the open todos, and nothing this key does not show
        try await $open.save()
        // docc:end
      }
      try await allSynced(client)
      let rows = try await serverRows(otherDevice, "todos")
      #expect(rows.compactMap { $0["title"]?.stringValue } == ["Done"])
    }
  }

  @Test("Syncing: $todos.create/update/delete reach the other device")
  func syncingExplicit() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await withDependencies { $0.defaultInstant = client } operation: {
        @Shared(.instantSync(Schema.todos)) var todos: IdentifiedArrayOf<Todo> = []
        try await settled($todos)
        // docc:begin Syncing/explicit
        let run = Todo(title: "Run")
        try await $todos.create(run)                              // one create
        try await $todos.update(id: run.id) { $0.done = true }    // one update of `done`
        // docc:end
        try await eventually("created and done") { try await serverTodos(otherDevice) == [Pair("Run", true)] }
        // docc:begin Syncing/explicitDelete
        try await $todos.delete(id: run.id)                       // one delete
        // docc:end
        try await eventually("deleted") { try await serverTodos(otherDevice).isEmpty }
      }
    }
  }

  @Test("Syncing: InstantMutations go through transact as one transaction")
  func syncingTransact() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      // docc:begin Syncing/transact
      let id = UUID().uuidString.lowercased()
      let create = InstantMutation(.create, namespace: "todos", id: id, arguments: ["title": "Swim", "done": false])
      let finish = InstantMutation(.update, namespace: "todos", id: id, arguments: ["done": true])
      let receipt = try await client.transact(create, finish)   // durable on this device
      try await receipt.synced()                                // acknowledged by the server
      // docc:end
      let rows = try await serverRows(otherDevice, "todos")
      #expect(rows.map { $0["title"] } == ["Swim"])
      #expect(rows.map { $0["done"] } == [true])
    }
  }

  @Test("Syncing: the configuration and request forms show the same rows as the typed key")
  func syncingSeedForms() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await writeTodos([("b", false), ("a", false), ("c", true)], with: otherDevice)
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Syncing/seedForms
        @Shared(.instantSync(OpenTodos())) var open: IdentifiedArrayOf<Todo> = []
        @Shared(.instantSync(configuration: .init(orderBy: .asc("title"), whereClause: ["done": false])))
        var sameRows: [Todo] = []
        // docc:end
        let (openRef, sameRowsRef) = ($open, $sameRows)
        try await eventually("both forms loaded") {
          openRef.wrappedValue.map(\.title) == ["a", "b"] && sameRowsRef.wrappedValue.map(\.title) == ["a", "b"]
        }
      }
    }
  }

  // MARK: Querying

  @Test("Querying: a read-only key with where, orderBy and limit")
  func queryingReadOnly() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await writeTodos([("a", false), ("b", false), ("c", false), ("d", true)], with: otherDevice)
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Querying/readOnly
        @SharedReader(.instantQuery(Schema.todos.where(\.done, .eq(false)).orderBy(\.title, .desc).limit(2)))
        var lastOpen: IdentifiedArrayOf<Todo> = []
        // docc:end
        let lastOpenRef = $lastOpen
        try await eventually("c and b") { lastOpenRef.wrappedValue.map(\.title) == ["c", "b"] }
      }
    }
  }

  @Test("Querying: predicates, or, and the InstaQL a key sends")
  func queryingPredicates() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await writeTodos([("Oat milk", false), ("Milkshake", true), ("Eggs", false), ("Bread", true)], with: otherDevice)
      // docc:begin Querying/predicates
      let milk = Schema.todos.where(\.title, .contains("milk"))          // case-insensitive
      let listed = Schema.todos.where(\.title, .in(["Eggs", "Bread"]))
      let doneOrEggs = Schema.todos.where(or: [
        { $0.where(\.done, .eq(true)) },
        { $0.where(\.title, .eq("Eggs")) },
      ])
      // docc:end
      let keys = (
        milk: SharedReader(.instantQuery(milk.orderBy(\.title), client: client)),
        listed: SharedReader(.instantQuery(listed.orderBy(\.title), client: client)),
        doneOrEggs: SharedReader(.instantQuery(doneOrEggs.orderBy(\.title), client: client))
      )
      try await eventually("each key's rows") {
        keys.milk.wrappedValue.map(\.title) == ["Milkshake", "Oat milk"]
          && keys.listed.wrappedValue.map(\.title) == ["Bread", "Eggs"]
          && keys.doneOrEggs.wrappedValue.map(\.title) == ["Bread", "Eggs", "Milkshake"]
      }

      // docc:begin Querying/instaQL
      let key = Schema.todos.where(\.done, .eq(false)).orderBy(\.title, .desc).limit(2)
      print(key.instaQL.serialized())
      // {"todos":{"$":{"where":{"done":false},"order":{"title":"desc"},"limit":2}}}
      // docc:end
      #expect(key.instaQL.serialized() == #"{"todos":{"$":{"where":{"done":false},"order":{"title":"desc"},"limit":2}}}"#)
    }
  }

  @Test("Querying: links, a where on a link path, and a nested where")
  func queryingLinks() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      let alice = Profile(handle: "alice")
      let bob = Profile(handle: "bob")
      let posts = [Post(content: "Hello"), Post(content: "Hello again"), Post(content: "Bye"), Post(content: "Hi")]
      try await otherDevice.transact(
        [.create("profiles", .id(alice.id), ["handle": "alice"]), .create("profiles", .id(bob.id), ["handle": "bob"])]
          + posts.map { .create("posts", .id($0.id), ["content": .string($0.content)]) }
          + posts.enumerated().map { index, post in
            .link("posts", .id(post.id), ["author": .string(index < 3 ? alice.id : bob.id)])
          }
      ).synced()
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Querying/links
        @SharedReader(.instantQuery(Schema.posts.where(\.author?.handle, .eq("alice")).with(\.author)))
        var alicesPosts: IdentifiedArrayOf<Post> = []

        @SharedReader(.instantQuery(Schema.profiles.with(\.posts) { $0.where(\.content, .startsWith("Hello")) }))
        var profiles: IdentifiedArrayOf<Profile> = []
        // docc:end
        let (postsRef, profilesRef) = ($alicesPosts, $profiles)
        try await eventually("alice's three posts, each with its author") {
          postsRef.wrappedValue.count == 3 && postsRef.wrappedValue.allSatisfy { $0.author?.handle == "alice" }
        }
        try await eventually("each profile with its posts starting with Hello") {
          profilesRef.wrappedValue[id: alice.id]?.posts?.map(\.content).sorted() == ["Hello", "Hello again"]
            && profilesRef.wrappedValue[id: bob.id]?.posts?.isEmpty == true
        }
      }
    }
  }

  // MARK: Presence

  @Test("Presence: each device sees the other, and a withLock edit of the user's presence reaches the peer")
  func presence() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      let bob = Shared(
        .instantPresence(Schema.Rooms.chat, roomId: "general", initialPresence: ChatPresence(name: "Bob"), client: otherDevice))
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Presence/declare
        @Shared(.instantPresence(Schema.Rooms.chat, roomId: "general", initialPresence: ChatPresence(name: "Ann")))
        var presence: RoomPresence<ChatPresence>
        // docc:end
        let presenceRef = $presence
        try await eventually("Ann sees Bob") { presenceRef.wrappedValue.peers.map(\.data.name) == ["Bob"] }
        try await eventually("Bob sees Ann") { bob.wrappedValue.peers.map(\.data.name) == ["Ann"] }
        #expect(presence.totalCount == 2)

        // docc:begin Presence/update
        $presence.withLock { $0.user.isTyping = true }   // publishes Ann's whole presence
        // docc:end
        try await eventually("Bob sees Ann typing") { bob.wrappedValue.peers.first?.data.isTyping == true }

        bob.withLock { $0.user.isTyping = true }
        try await eventually("Ann sees Bob typing") { presenceRef.wrappedValue.peers.first?.data.isTyping == true }
        // docc:begin Presence/read
        let typing = presence.peers.filter(\.data.isTyping).map(\.data.name)
        let label = typing.isEmpty ? nil : typing.joined(separator: ", ") + " typing…"
        // docc:end
        #expect(label == "Bob typing…")
      }
    }
  }

  // MARK: Topics

  @Test("Topics: a published event reaches the other device's channel, not the sender's")
  func topics() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      let listener = Shared(.instantTopic(Schema.Topics.Chat.reactions, roomId: "general", client: otherDevice))
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Topics/declare
        @Shared(.instantTopic(Schema.Topics.Chat.reactions, roomId: "general", maxEvents: 20))
        var reactions: TopicChannel<ChatReaction>
        // docc:end
        let reactionsRef = $reactions
        try await eventually("both joined") { reactionsRef.wrappedValue.isConnected && listener.wrappedValue.isConnected }
        // An event reaches only peers the server already has in the room: wait until the
        // listener's join is confirmed by publishing until it hears one.
        try await eventually("the listener hears the sender") {
          try await reactionsRef.publish(ChatReaction(emoji: "👋"))
          try await Task.sleep(for: .milliseconds(50))
          return listener.wrappedValue.latestEvent != nil
        }

        // docc:begin Topics/publish
        try await $reactions.publish(ChatReaction(emoji: "🔥"))
        // docc:end
        try await eventually("the listener hears 🔥") { listener.wrappedValue.latestEvent?.data.emoji == "🔥" }

        try await listener.publish(ChatReaction(emoji: "👏"))
        try await eventually("the sender hears 👏") { reactionsRef.wrappedValue.latestEvent != nil }
        // docc:begin Topics/read
        let recent = reactions.events.map(\.data.emoji)    // oldest first, at most maxEvents
        let from = reactions.latestEvent?.peerID           // the peer that sent the newest one
        // docc:end
        #expect(recent == ["👏"])   // the sender's own 👋 and 🔥 are not echoed back
        #expect(from != nil)

        // docc:begin Topics/clear
        $reactions.withLock { $0.clearEvents() }   // local only: nothing is sent
        // docc:end
        #expect(reactions.events.isEmpty)
        #expect(listener.wrappedValue.events.map(\.data.emoji).suffix(1) == ["🔥"])
      }
    }
  }

  // MARK: Auth

  @Test("Auth: guest sign-in, the state, a refused code and its error, sign-out")
  func auth() async throws {
    try await KeysServer.withTwoClients { client, _ in
      try await withDependencies { $0.defaultInstant = client } operation: {
        // docc:begin Auth/declare
        @Shared(.instantAuth) var auth: AuthSession
        // docc:end
        let authRef = $auth
        try await eventually("the stored user is read") { authRef.wrappedValue.state == .signedOut }

        // docc:begin Auth/guest
        $auth.signInAsGuest()
        // docc:end
        try await eventually("a guest") { authRef.wrappedValue.isGuest && authRef.wrappedValue.isSuccess }

        // docc:begin Auth/state
        let greeting: String
        switch auth.state {
        case .loading: greeting = ""
        case .signedOut: greeting = "Sign in"
        case .guest: greeting = "Welcome, guest"
        case .signedIn(let user): greeting = "Hello, \(user.email ?? user.id)"
        }
        // docc:end
        #expect(greeting == "Welcome, guest")

        let email = "ann@example.com"
        // docc:begin Auth/sendCode
        $auth.sendMagicCode(to: email)
        // docc:end
        try await eventually("the code is sent") { authRef.wrappedValue.isSuccess }
        let code = "000000"   // not the code instant-local made
        // docc:begin Auth/verifyCode
        $auth.verifyMagicCode(email: email, code: code)
        // docc:end
        try await eventually("the code is refused") { authRef.wrappedValue.operationStatus == .error }
        #expect((auth.error as? InstantClientError)?.kind == .authRejected)

        // docc:begin Auth/error
        if auth.operationStatus == .error, let error = auth.error {
          print("Sign-in failed: \(error)")
          $auth.clearError()   // back to .idle, error nil
        }
        // docc:end
        #expect(auth.isIdle && auth.error == nil)
        #expect(auth.isGuest)   // a failed upgrade leaves the guest signed in

        // docc:begin Auth/signOut
        $auth.signOut()
        // docc:end
        try await eventually("signed out") { authRef.wrappedValue.state == .signedOut }
      }
    }
  }

  // MARK: Offline

  @Test("Offline: the indicators follow the connection and the queue; the edit lands on reconnect")
  func offlineIndicators() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      try await withDependencies { $0.defaultInstant = client } operation: {
        @Shared(.instantSync(Schema.todos)) var todos: IdentifiedArrayOf<Todo> = []
        // docc:begin Offline/indicators
        @SharedReader(.instantConnection) var status: ConnectionStatus
        @SharedReader(.instantPendingWrites) var pending: PendingWrites
        // docc:end
        let (statusRef, pendingRef) = ($status, $pending)
        try await eventually("online") { statusRef.wrappedValue == .authenticated }

        // docc:begin Offline/network
        await client.setNetworkAvailable(false)   // from NWPathMonitor, say
        // docc:end
        try await eventually("offline") { statusRef.wrappedValue != .authenticated }
        $todos.withLock { _ = $0.append(Todo(title: "Written offline")) }
        try await $todos.save()
        try await eventually("one write waiting") { pendingRef.wrappedValue.count == 1 }

        // docc:begin Offline/banner
        let banner = status == .authenticated ? nil : "Offline · \(pending.count) waiting"
        // docc:end
        #expect(banner == "Offline · 1 waiting")
        #expect(try await serverTodos(otherDevice).isEmpty)

        // docc:begin Offline/reconnect
        await client.setNetworkAvailable(true)    // reconnects at once and sends the queue in order
        // docc:end
        try await eventually("acknowledged") { pendingRef.wrappedValue.isEmpty }
        #expect(try await serverTodos(otherDevice) == [Pair("Written offline")])
      }
    }
  }

  @Test("Offline: an edit the server refuses is rolled back and reported as loadError")
  func offlineRefused() async throws {
    try await KeysServer.withTwoClients(expectingErrors: ["the server rejected a write: Updating entities that don't exist", "a write of todos was refused: Updating entities that don't exist"]) { client, otherDevice in
      let gone = Todo(title: "Gone")
      try await otherDevice.transact(.create("todos", .id(gone.id), ["title": "Gone", "done": false])).synced()
      try await withDependencies { $0.defaultInstant = client } operation: {
        @Shared(.instantSync(Schema.todos)) var todos: IdentifiedArrayOf<Todo> = []
        let todosRef = $todos
        try await eventually("loaded") { todosRef.wrappedValue.count == 1 }
        await client.setNetworkAvailable(false)
        $todos.withLock { $0[id: gone.id]?.done = true }   // a strict update…
        try await $todos.save()
        try await otherDevice.transact(.delete("todos", .id(gone.id))).synced()   // …of a deleted todo
        await client.setNetworkAvailable(true)
        try await eventually("refused") { todosRef.loadError != nil }

        // docc:begin Offline/refused
        if let error = $todos.loadError as? InstantClientError, error.kind == .transactionRejected {
          print("The server refused an edit: \(error.message)")
        }
        // docc:end
        let error = try #require(todosRef.loadError as? InstantClientError)
        #expect(error.kind == .transactionRejected)
        try await eventually("rolled back: the deleted todo is not brought back") { todosRef.wrappedValue.isEmpty }
      }
      try await allSynced(client)
      #expect(try await serverRows(otherDevice, "todos").isEmpty)
    }
  }

  @Test("Offline: writes queued in one run are sent by the next client on the same file")
  func offlineRestart() async throws {
    try await KeysServer.withTwoClients { client, otherDevice in
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("docc-\(UUID().uuidString).sqlite")
      defer {
        for suffix in ["", "-wal", "-shm", ".lock", ".user.json"] {
          try? FileManager.default.removeItem(atPath: file.path + suffix)
        }
      }
      let (appId, apiURI, websocketURI) = (client.appId, client.apiURI, client.websocketURI)
      // The first run never reaches a server: its write stays in the file's queue.
      let firstRun = InstantClient(
        appId: appId, apiURI: apiURI, websocketURI: URL(string: "ws://127.0.0.1:1/runtime/session")!,
        storage: .sqlite(file))
      let todos = Shared(.instantSync(Schema.todos, client: firstRun))
      todos.withLock { _ = $0.append(Todo(title: "Before the restart")) }
      try await todos.save()
      await firstRun.shutdown()

      // docc:begin Offline/restart
      let relaunched = InstantClient(appId: appId, apiURI: apiURI, websocketURI: websocketURI, storage: .sqlite(file))
      let waiting = await relaunched.pendingWrites   // what the last run queued, sent once connected
      // docc:end
      #expect(waiting.count == 1)
      try await allSynced(relaunched)
      let rows = try await serverRows(otherDevice, "todos")
      #expect(rows.compactMap { $0["title"]?.stringValue } == ["Before the restart"])
      await relaunched.shutdown()
    }
  }

  // MARK: Testing

  @Test("Testing: an offline client in withDependencies queues the key's write")
  func testingOffline() async throws {
    // docc:begin Testing/offline
    let client = InstantClient.offline(appId: "todo-tests")
    try await withDependencies {
      $0.defaultInstant = client
    } operation: {
      @Shared(.instantSync(Schema.todos)) var todos: IdentifiedArrayOf<Todo> = []
      $todos.withLock { _ = $0.append(Todo(title: "Offline")) }
      try await $todos.save()
      #expect(todos.map(\.title) == ["Offline"])
    }
    #expect(await client.pendingWrites.count == 1)
    // docc:end
    await client.shutdown()
  }

  @Test("Testing: two clients against an embedded instant-local")
  func testingInstantLocal() async throws {
    // docc:begin Testing/instantLocal
    try await withInstantLocal { server in
      let api = try #require(await server.baseURL)
      let socket = try #require(await server.webSocketURL)
      let appId = "0f2b6c1e-8d4a-4e1b-9c3d-5a6b7c8d9e0f"   // any UUID is an app
      let ann = InstantClient(appId: appId, apiURI: api, websocketURI: socket, storage: .memory)
      let bob = InstantClient(appId: appId, apiURI: api, websocketURI: socket, storage: .memory)

      let annTodos = Shared(.instantSync(Schema.todos, client: ann))
      annTodos.withLock { _ = $0.append(Todo(title: "Shared")) }
      try await annTodos.save()
      while await ann.pendingWrites.contains(where: { $0.state != .synced }) {
        try await Task.sleep(for: .milliseconds(10))   // until the server has acknowledged it
      }

      let bobTodos = SharedReader(.instantQuery(Schema.todos, client: bob))
      while bobTodos.wrappedValue.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
      #expect(bobTodos.wrappedValue.map(\.title) == ["Shared"])

      await ann.shutdown()
      await bob.shutdown()
    }
    // docc:end
  }
}
