import CaseStudies
import DemoSupport
import ExampleSchema
import Foundation
import InstantCore
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import InstantLocal
import SharingInstant

extension Story {
  /// The steps, in order; the first that does not happen within the timeout stops the story.
  func tell() async throws {
    let todosA = on(a) { TodosModel() }
    let todosB = on(b) { TodosModel() }
    let statusA = SharedReader(.instantConnection(client: a))
    let statusB = SharedReader(.instantConnection(client: b))

    try await step("A and B connect and load their todos") {
      if server.embedded == nil { _ = try server.checkedReachable() }
      try await wait("both clients authenticated (or refused)") {
        [statusA.wrappedValue, statusB.wrappedValue].allSatisfy { $0 == .authenticated || $0 == .errored }
      }
      if statusA.wrappedValue == .errored || statusB.wrappedValue == .errored {
        var error = await a.lastError
        if error == nil { error = await b.lastError }
        throw DemoError("the server refused the clients: \(error?.message ?? "no reason given") (is --app-id an app on this server?)")
      }
      try await wait("both todo keys loaded") { !todosA.$todos.isLoading && !todosB.$todos.isLoading }
      return (nil, "A: \(statusA.wrappedValue), B: \(statusB.wrappedValue)")
    }

    var added: [Todo] = []
    try await step("A adds three todos → B sees them") {
      let latency = try await sync("B sees A's three todos") {
        for title in ["Buy milk", "Walk the dog", "Write the report"] {
          if let todo = todosA.add(title) { added.append(todo) }
        }
        created += added.map(\.id)
      } seen: {
        added.allSatisfy { todosB.todos[id: $0.id]?.title == $0.title }
      }
      return (latency, "B: " + titles(todosB.todos, only: created))
    }
    let (milk, dog, report) = (added[0], added[1], added[2])

    try await step("B marks “\(milk.title)” done → A sees it") {
      let latency = try await sync("A sees it done") { todosB.toggle(milk.id) } seen: { todosA.todos[id: milk.id]?.done == true }
      return (latency, "A: " + titles(todosA.todos, only: created))
    }

    try await step("B deletes “\(dog.title)” → A sees it gone") {
      let latency = try await sync("A sees it gone") { todosB.remove(dog.id) } seen: { todosA.todos[id: dog.id] == nil }
      return (latency, "A: " + titles(todosA.todos, only: created))
    }

    try await filteredAndLimitedKeys(todosA: todosA, todosB: todosB)
    try await room()
    try await offlineEdit(todosA: todosA, todosB: todosB, todo: report)
    try await refusedWrite(todosA: todosA, todosB: todosB, todo: milk)
    try await permissionRefusal(todosA: todosA, todo: report)
    try await fileSharing()
    try await cleanUp(todosA: todosA)
  }

  /// A filtered, ordered key and a limited one on B stay equal to what B's full list implies.
  func filteredAndLimitedKeys(todosA: TodosModel, todosB: TodosModel) async throws {
    let open = SharedReader(.instantQuery(Schema.todos.where(\.done, .eq(false)).orderBy(\.createdAt, .desc), client: b))
    let newest = SharedReader(.instantQuery(Schema.todos.orderBy(\.createdAt, .desc).limit(2), client: b))
    func consistent() -> Bool {
      let all = todosB.todos.sorted { $0.createdAt > $1.createdAt }
      return open.wrappedValue.map(\.id) == all.filter { !$0.done }.map(\.id)
        && newest.wrappedValue.map(\.id) == Array(all.prefix(2)).map(\.id)
    }
    try await wait("B's filtered and limited keys loaded") { !open.isLoading && !newest.isLoading && consistent() }

    var email: Todo?
    try await step("A adds “Answer email” → on B it heads the open-todos key (done == false, newest first) and the newest-2 key") {
      let latency = try await sync("B's keys show it") {
        email = todosA.add("Answer email")
        if let email { created.append(email.id) }
      } seen: {
        open.wrappedValue.first?.id == email?.id && newest.wrappedValue.first?.id == email?.id && consistent()
      }
      return (latency, "open: \(open.wrappedValue.map(\.title)) · newest 2: \(newest.wrappedValue.map(\.title))")
    }
    guard let email else { return }
    try await step("A marks “Answer email” done → it leaves B's open-todos key, stays in the newest-2 key") {
      let latency = try await sync("it leaves B's open key") { todosA.toggle(email.id) } seen: {
        open.wrappedValue[id: email.id] == nil && newest.wrappedValue[id: email.id]?.done == true && consistent()
      }
      return (latency, "open: \(open.wrappedValue.map(\.title)) · newest 2: \(newest.wrappedValue.map(\.title))")
    }
  }

  /// Presence and topics: A types, B sees "Ann is typing…"; A sends; A reacts.
  func room() async throws {
    let roomID = "instant-demo-\(UUID().uuidString.prefix(8).lowercased())"
    let ann = on(a) { ChatModel(name: "Ann", color: "#E5484D", roomID: roomID) }
    let bob = on(b) { ChatModel(name: "Bob", color: "#3E63DD", roomID: roomID) }

    try await step("A and B join the chat room “\(roomID)” → each sees the other") {
      let start = clock.now
      do {
        try await wait("each sees the other") { ann.peers.map(\.data.name) == ["Bob"] && bob.peers.map(\.data.name) == ["Ann"] }
      } catch {
        throw DemoError("\(error); A sees \(ann.peers.map(\.data.name)) (\(ann.presence.error.map { "\($0)" } ?? "no error")), B sees \(bob.peers.map(\.data.name)) (\(bob.presence.error.map { "\($0)" } ?? "no error"))")
      }
      return (nil, "avatars on B: \(bob.avatars.map(\.name).joined(separator: " · ")) (joined in \(StoryReport.format(clock.now - start)))")
    }

    try await step("A starts typing → B shows “Ann is typing…”") {
      let latency = try await sync("B shows the typing indicator") { ann.draftChanged("hel") } seen: {
        bob.typingText == "Ann is typing…"
      }
      return (latency, "B: \(bob.typingText ?? "")")
    }

    var sent: Message?
    try await step("A sends “hello” → B gets the message and the typing indicator goes away") {
      let latency = try await sync("B gets the message") { sent = ann.send("hello") } seen: {
        bob.timeline.last?.id == sent?.id && bob.typingText == nil
      }
      return (latency, "B: \(bob.timeline.map { "\($0.author): \($0.text)" }.joined(separator: " · "))")
    }
    if let sent {
      ann.$messages.withLock { _ = $0.remove(id: sent.id) }
      try await ann.$messages.save()
    }

    try await step("A reacts 🔥 (a topic event, never stored) → B receives it") {
      let start = clock.now
      // A topic event reaches the peers that have joined when it is sent, as in the reference.
      try await ann.react("🔥")
      try await wait("B receives the reaction") { bob.reactions.latestEvent?.data == ChatEmojiTopic(emoji: "🔥", name: "Ann") }
      return (clock.now - start, "B: \(bob.reactions.latestEvent.map { "\($0.data.name) reacted \($0.data.emoji)" } ?? "")")
    }
  }

  /// A goes offline and edits; B does not see it; A comes back and the edit lands on B.
  func offlineEdit(todosA: TodosModel, todosB: TodosModel, todo: Todo) async throws {
    try await step("A goes offline and renames “\(todo.title)” → A shows it at once, B does not") {
      await a.setNetworkAvailable(false)
      todosA.rename(todo.id, to: "Write the report (draft 2)")
      try await todosA.save()
      let pending = await a.pendingWrites.count { $0.state != .synced }
      guard todosA.todos[id: todo.id]?.title == "Write the report (draft 2)" else { throw DemoError("A does not show its own edit") }
      guard todosB.todos[id: todo.id]?.title == todo.title else { throw DemoError("B saw an edit A made offline") }
      return (nil, "A: \(pending) write(s) queued, not yet acknowledged; B still sees “\(todo.title)”")
    }
    try await step("A comes back online → its queued edit lands on B") {
      let latency = try await sync("B sees the edit") {
        Task { await a.setNetworkAvailable(true) }
      } seen: {
        todosB.todos[id: todo.id]?.title == "Write the report (draft 2)"
      }
      return (latency, "B: " + titles(todosB.todos, only: created) + " (time from reconnecting)")
    }
  }

  /// B deletes a todo while A is offline editing it: the server refuses A's edit (a strict
  /// update never resurrects a deleted entity) and A rolls it back, with the server's message.
  func refusedWrite(todosA: TodosModel, todosB: TodosModel, todo: Todo) async throws {
    try await step("While A is offline, B deletes “\(todo.title)” and A edits it") {
      await a.setNetworkAvailable(false)
      todosB.remove(todo.id)
      try await todosB.save()
      try await acknowledged(b, "B's delete")
      todosA.rename(todo.id, to: "Buy oat milk")
      try await todosA.save()
      guard todosA.todos[id: todo.id]?.title == "Buy oat milk" else { throw DemoError("A does not show its own edit") }
      return (nil, "A shows “Buy oat milk”; B has deleted it")
    }
    try await step("A comes back online → the server refuses the edit; A rolls it back and says why") {
      let latency = try await sync("A rolls back") {
        Task { await a.setNetworkAvailable(true) }
      } seen: {
        todosA.todos[id: todo.id] == nil && todosA.error != nil
      }
      return (latency, "A: \(todosA.error.map { "\($0)" } ?? "")")
    }
  }

  /// The app's permission rules refuse an edit: A rolls it back and reports `permission-denied`.
  /// Only on the embedded server, whose rules this process sets (a server someone else runs has
  /// its own rules, or none).
  func permissionRefusal(todosA: TodosModel, todo: Todo) async throws {
    guard let embedded = server.embedded else { return }
    let rule = "size(newData.title) <= 40"
    try await step("The app's rules allow titles of up to 40 characters; A tries a longer one → refused, rolled back") {
      try await embedded.setRules(["todos": ["allow": ["update": .string(rule)]]])
      let before = todosA.todos[id: todo.id]?.title
      let refused: Result<Duration, any Error>
      do {
        refused = .success(
          try await sync("A rolls back") {
            todosA.rename(todo.id, to: "Write the report, with every appendix and the index, today")
          } seen: {
            (todosA.error as? InstantClientError)?.isPermissionDenied == true && todosA.todos[id: todo.id]?.title == before
          })
      } catch {
        refused = .failure(error)
      }
      try await embedded.setRules(nil)
      let latency = try refused.get()
      return (latency, "rule: update \"\(rule)\"; A: “\(before ?? "")”, \((todosA.error as? InstantClientError)?.message ?? "")")
    }
  }

  /// A uploads a file with `db.storage`; B's `$files` query shows it, with a URL that serves the
  /// same bytes. Only on the embedded server: `$files` is closed until an app's rules open it, and
  /// this process sets the embedded server's rules.
  func fileSharing() async throws {
    guard let embedded = server.embedded else { return }
    try await step("A uploads a file → B sees it in $files, and its URL serves the same bytes") {
      try await embedded.setRules(["$files": ["allow": ["create": "true", "view": "true", "delete": "true"]]])
      let path = "demo/\(InstantID.make()).txt"
      let bytes = Data("Hello from A 👋".utf8)
      let seen = SeenFile()
      let reader = Task { @MainActor in
        for await result in b.subscribe(["$files": ["$": ["where": ["path": .string(path)]]]]) {
          seen.url = result.data["$files"]?[0]?["url"]?.stringValue
        }
      }
      let outcome: Result<(Duration, Data), any Error>
      do {
        let start = clock.now
        _ = try await a.storage.uploadFile(path, bytes, contentType: "text/plain; charset=utf-8")
        try await wait("B sees \(path)") { seen.url != nil }
        let latency = clock.now - start
        let url = try URL(string: seen.url ?? "").orThrow(FileMismatch(message: "B's url is not a URL"))
        outcome = .success((latency, try await URLSession.shared.data(from: url).0))
      } catch {
        outcome = .failure(error)
      }
      reader.cancel()
      _ = try? await a.storage.delete(path)
      try await embedded.setRules(nil)
      let (latency, downloaded) = try outcome.get()
      guard downloaded == bytes else {
        throw FileMismatch(message: "B downloaded \(downloaded.count) bytes, not the \(bytes.count) A uploaded")
      }
      return (latency, "\(path), \(bytes.count) bytes; B fetched “\(String(decoding: downloaded, as: UTF8.self))” from its signed URL")
    }
  }

  /// Deletes what the story created (what is left of it).
  func cleanUp(todosA: TodosModel) async throws {
    let mine = Set(created)
    try await step("A deletes the todos this run created") {
      todosA.$todos.withLock { $0.removeAll { mine.contains($0.id) } }
      try await todosA.save()
      try await acknowledged(a, "the deletes")
      return (nil, nil)
    }
  }
}

/// The titles of `todos` whose ids are in `only`, done ones struck through with a ✓.
func titles(_ todos: IdentifiedArrayOf<Todo>, only: [Todo.ID]) -> String {
  let mine = Set(only)
  let shown = todos.filter { mine.contains($0.id) }.map { $0.done ? "✓ \($0.title)" : $0.title }
  return shown.isEmpty ? "(none)" : shown.joined(separator: " · ")
}

/// The `url` B's `$files` query shows, once it shows one.
@MainActor
final class SeenFile {
  var url: String?
}

/// A file that did not come back as it went.
struct FileMismatch: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

extension Optional {
  /// The value, or `error` thrown.
  func orThrow(_ error: some Error) throws -> Wrapped {
    guard let self else { throw error }
    return self
  }
}
