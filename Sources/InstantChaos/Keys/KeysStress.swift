import Foundation
import InstantCore
import InstantDB
import InstantLocal
import Logging
import NIOConcurrencyHelpers
import SharingInstant

/// `instant-chaos keys`: issue 19's scenario through the `@Shared` keys. A writer client changes
/// data with plain transactions while an editor client holds a sync key over it and edits through
/// `withLock` every few milliseconds; at the end the server's data is compared with the writer's
/// model. Any row the edits deleted, wrote back, re-created or moved back is damage; every count
/// must be 0. `naive` diffs the editor's edits against the newest value its key showed, the
/// design before issue 19, which shows that the check can fail.
package struct KeysStress: Sendable {
  package enum Scenario: String, CaseIterable, Sendable {
    /// The writer creates, renames and deletes todos; the editor toggles `done` on any of them.
    case todos
    /// The writer renames 8 profiles and moves 200 posts between them; the editor, holding
    /// `posts.with(\.author)`, edits posts' content.
    case nested
    /// The writer creates todos that push rows into and out of the editor's key,
    /// `todos.where(done = false).orderBy(n).limit(10)`; the editor marks rows of it done.
    case window
  }

  package static let appID = "5eed5eed-0190-4a6e-9f0e-0a1b2c3d4e5f"

  package var scenario = Scenario.todos
  package var seed: UInt64 = 1
  package var intervalMilliseconds = 20
  package var seconds = 20.0
  package var naive = false
  /// Edits on the main actor (the README's `@MainActor @Observable` model) instead of a thread.
  package var onMainActor = false
  /// Keeps the main actor busy 1–30 ms at a time while the run goes on, so results land while an
  /// edit on the main actor waits its turn.
  package var busyMainActor = false

  package init() {}

  package func run() async throws -> KeysStressReport {
    var logger = Logger(label: "instant-chaos-keys")
    logger.logLevel = .critical
    let server = try InstantLocalServer(configuration: .init(port: 0, storage: .memory), logger: logger)
    let port = try await server.start()
    let clients = (0..<3).map { _ in client(port: port) }
    let (writer, editor, reader) = (clients[0], clients[1], clients[2])
    let refusals = NIOLockedValueBox([String]())
    let watching = Task {
      for await rejected in editor.rejectedWrites() { refusals.withLockedValue { $0.append("\(rejected.error)") } }
    }
    defer { watching.cancel() }
    let trace = NIOLockedValueBox([String]())
    let outcome: Result<KeysStressReport, any Error>
    switch scenario {
    case .todos, .window: outcome = await Result { try await todos(writer: writer, editor: editor, reader: reader, trace: trace) }
    case .nested: outcome = await Result { try await nested(writer: writer, editor: editor, reader: reader, trace: trace) }
    }
    // Shut down before the next seed's run starts, not in a task left running beside it.
    for client in clients { await client.shutdown() }
    await server.stop()
    let report = try outcome.get()
    if !report.passed, ProcessInfo.processInfo.environment["KEYS_STRESS_TRACE"] != nil {
      for id in report.damagedIDs {
        for line in trace.withLockedValue({ $0 }) where line.contains(id) {
          FileHandle.standardError.write(Data("damaged \(id) ← \(line)\n".utf8))
        }
        for line in refusals.withLockedValue({ $0 }) where line.contains(id) {
          FileHandle.standardError.write(Data("damaged \(id) refused: \(line)\n".utf8))
        }
      }
    }
    return report
  }

  private func client(port: Int) -> InstantClient {
    InstantClient(
      appId: Self.appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
      websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: .memory,
      schema: StressSchema.client)
  }

  private var deadline: ContinuousClock.Instant { .now + .milliseconds(Int(seconds * 1000)) }

  // MARK: Todos and the window

  private func todos(
    writer: InstantClient, editor: InstantClient, reader: InstantClient, trace: NIOLockedValueBox<[String]>
  ) async throws -> KeysStressReport {
    let window = scenario == .window
    var key = StressSchema.todos
    if window { key = key.where(\.done, .eq(false)).orderBy(\.n, .asc).limit(10) }
    let syncKey = self.syncKey(key, editor, trace)
    let todos = Shared(wrappedValue: [], syncKey)
    var model = TodoWriterModel()
    var rng = SplitMix(seed: seed).derived(1)
    // A first page of rows, so the editor has something to edit from the start.
    for _ in 0..<20 { try await writer.transact(model.create(&rng, window: window)) }
    try await waitUntil("the editor's key loaded") { !todos.wrappedValue.isEmpty }

    let end = deadline
    let busy = busyMainActor ? Task { await keepMainActorBusy(until: end) } : nil
    defer { busy?.cancel() }
    let written = NIOLockedValueBox([String: Bool]())
    async let edits = edit(until: end, seed: seed) { rng in
      var made: (String, Bool)?
      todos.withLock { value in
        guard !value.isEmpty else { return }
        let index = Int.random(in: 0..<value.count, using: &rng)
        value[index].done = window ? true : !value[index].done
        made = (value[index].id, value[index].done)
      }
      guard let made else { return false }
      written.withLockedValue { $0[made.0] = made.1 }
      return true
    }
    var ops = 0
    while ContinuousClock.now < end {
      try await writer.transact(model.next(&rng, window: window))
      ops += 1
      try await Task.sleep(for: .milliseconds(10))
    }
    let editCount = await edits
    try await queued(todos)
    try await settle(writer, editor)

    let rows = try await byID(reader.queryOnce(["todos": [:]]).data["todos"]?.arrayValue ?? [])
    let deletedIDs = model.titles.keys.filter { rows[$0] == nil }
    let writtenBackIDs = model.titles.filter { id, title in rows[id].map { $0["title"]?.stringValue != title } ?? false }.keys
    let recreatedIDs = model.deleted.filter { rows[$0] != nil }
    let lostIDs = written.withLockedValue { $0 }.filter { id, done in
      rows[id].map { $0["done"]?.boolValue != done } ?? false
    }.keys
    return report(
      damage: [("deleted by edits", Array(deletedIDs)), ("written back", Array(writtenBackIDs)), ("re-created", Array(recreatedIDs))],
      lost: Array(lostIDs), edits: editCount, statistics: syncKey.statistics, writerOps: ops, rows: rows.count)
  }

  /// The editor's key; `naive` makes it the deliberately broken one. Its writes go to `trace`.
  private func syncKey<Entity>(
    _ key: EntityKey<Entity>, _ client: InstantClient, _ trace: NIOLockedValueBox<[String]>
  ) -> InstantSyncKey<Entity> {
    let syncKey = InstantSyncKey(key, client: client)
    syncKey.hooks.unexchanged = naive
    syncKey.hooks.willWrite = { (ops: [InstaMLOp]) in
      let line = ops.map { "\($0.action) \($0.entity) \($0.args.map { "\($0)" } ?? "")" }.joined(separator: "; ")
      trace.withLockedValue { $0.append(line) }
    }
    return syncKey
  }

  // MARK: Nested

  private func nested(
    writer: InstantClient, editor: InstantClient, reader: InstantClient, trace: NIOLockedValueBox<[String]>
  ) async throws -> KeysStressReport {
    var rng = SplitMix(seed: seed).derived(1)
    var model = PostWriterModel(rng: &rng)
    try await writer.transact(model.setup())
    let syncKey = self.syncKey(StressSchema.posts.with(\.author), editor, trace)
    let posts = Shared(wrappedValue: [], syncKey)
    let postCount = model.authors.count
    try await waitUntil("the editor's key loaded") { posts.wrappedValue.count == postCount }

    let end = deadline
    let busy = busyMainActor ? Task { await keepMainActorBusy(until: end) } : nil
    defer { busy?.cancel() }
    let written = NIOLockedValueBox([String: String]())
    let counter = NIOLockedValueBox(0)
    async let edits = edit(until: end, seed: seed) { rng in
      let content = counter.withLockedValue { $0 += 1; return "edit \($0)" }
      var edited: String?
      posts.withLock { value in
        guard !value.isEmpty else { return }
        let index = Int.random(in: 0..<value.count, using: &rng)
        value[index].content = content
        edited = value[index].id
      }
      guard let edited else { return false }
      written.withLockedValue { $0[edited] = content }
      return true
    }
    var ops = 0
    while ContinuousClock.now < end {
      try await writer.transact(model.next(&rng))
      ops += 1
      try await Task.sleep(for: .milliseconds(6))
    }
    let editCount = await edits
    try await queued(posts)
    try await settle(writer, editor)

    let data = try await reader.queryOnce(["posts": ["author": [:]], "profiles": [:]]).data
    let rows = byID(data["posts"]?.arrayValue ?? [])
    let profiles = byID(data["profiles"]?.arrayValue ?? [])
    let movedBackIDs = model.authors.filter { post, author in rows[post]?["author"]?["id"]?.stringValue != author }.keys
    let handleIDs = model.handles.filter { profile, handle in profiles[profile]?["handle"]?.stringValue != handle }.keys
    let deletedIDs = model.authors.keys.filter { rows[$0] == nil }
    let lostIDs = written.withLockedValue { $0 }.filter { post, content in rows[post]?["content"]?.stringValue != content }.keys
    return report(
      damage: [("posts deleted by edits", Array(deletedIDs)), ("posts moved back", Array(movedBackIDs)), ("handles written back", Array(handleIDs))],
      lost: Array(lostIDs), edits: editCount, statistics: syncKey.statistics, writerOps: ops, rows: rows.count)
  }

  /// A report of this run: each kind of damage with the ids it hit, and the editor's lost edits.
  private func report(
    damage: [(String, [String])], lost: [String], edits: Int, statistics: KeyEditStatistics, writerOps: Int, rows: Int
  ) -> KeysStressReport {
    KeysStressReport(
      scenario: scenario, seed: seed, intervalMilliseconds: intervalMilliseconds,
      damage: damage.map { ($0.0, $0.1.count) }, ownEditsLost: lost.count, edits: edits,
      editsMetByResults: statistics.editsMetByResults, writes: statistics.writes, writerOps: writerOps, rows: rows,
      damagedIDs: damage.flatMap(\.1) + lost)
  }

  // MARK: Driving

  /// Calls `edit` every 0.5–1.5 × the interval until `end`, on a thread of its own or on the main
  /// actor; returns how many edits it made.
  private func edit(until end: ContinuousClock.Instant, seed: UInt64, _ edit: @escaping @Sendable (inout SplitMix) -> Bool) async -> Int {
    let interval = intervalMilliseconds
    var rng = SplitMix(seed: seed).derived(2)
    if onMainActor {
      var count = 0
      while ContinuousClock.now < end {
        if await MainActor.run(body: { edit(&rng) }) { count += 1 }
        try? await Task.sleep(for: .milliseconds(Int.random(in: interval / 2...interval * 3 / 2, using: &rng)))
      }
      return count
    }
    return await withCheckedContinuation { [rng] continuation in
      Thread {
        var rng = rng
        var count = 0
        while ContinuousClock.now < end {
          if edit(&rng) { count += 1 }
          Thread.sleep(forTimeInterval: Double(Int.random(in: interval / 2...interval * 3 / 2, using: &rng)) / 1000)
        }
        continuation.resume(returning: count)
      }.start()
    }
  }

  /// Holds the main actor for 1–30 ms, lets it go for a moment, and again, until `end`.
  private func keepMainActorBusy(until end: ContinuousClock.Instant) async {
    var rng = SplitMix(seed: seed).derived(3)
    while ContinuousClock.now < end, !Task.isCancelled {
      let hold = Duration.milliseconds(Int.random(in: 1...30, using: &rng))
      await MainActor.run {
        let until = ContinuousClock.now + hold
        while ContinuousClock.now < until {}
      }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// Waits until the key's writes are queued in its client (the last edit's may still be on its
  /// way when the edits stop).
  private func queued<Value>(_ shared: Shared<Value>) async throws {
    do {
      try await shared.save()
    } catch {
      // The last write could not be queued: the run reports it as an own edit lost.
      FileHandle.standardError.write(Data("the editor's last write was not queued: \(error)\n".utf8))
    }
  }

  /// Waits until neither client has a write the server has not acknowledged.
  private func settle(_ clients: InstantClient...) async throws {
    for client in clients {
      try await waitUntil("every write acknowledged", timeout: .seconds(300)) {
        await client.pendingWrites.allSatisfy { $0.state == .synced }
      }
    }
  }

  private func waitUntil(
    _ what: String, timeout: Duration = .seconds(60), _ condition: @Sendable () async -> Bool
  ) async throws {
    let end = ContinuousClock.now + timeout
    while ContinuousClock.now < end {
      if await condition() { return }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw KeysStressError(description: "\(what) did not happen within \(timeout)")
  }

  private func byID(_ rows: [JSON]) -> [String: JSON] {
    Dictionary(rows.map { ($0["id"]?.stringValue ?? "", $0) }, uniquingKeysWith: { first, _ in first })
  }
}

struct KeysStressError: Error, CustomStringConvertible {
  var description: String
}

/// The writer's todos: what each live row's title is, and which rows it deleted.
struct TodoWriterModel {
  var titles: [String: String] = [:]
  var deleted: Set<String> = []
  private var live: [String] = []
  private var counter = 0

  mutating func create(_ rng: inout SplitMix, window: Bool) -> InstaMLOp {
    counter += 1
    let id = InstantID.make(using: &rng)
    let title = "t\(counter)"
    titles[id] = title
    live.append(id)
    let n = window ? Double(Int.random(in: 0..<100_000, using: &rng)) : Double(counter)
    return .create("todos", .id(id), ["title": .string(title), "done": false, "n": .number(n)])
  }

  /// Mostly creates; renames and deletes rows of its own.
  mutating func next(_ rng: inout SplitMix, window: Bool) -> InstaMLOp {
    let roll = Double.random(in: 0..<1, using: &rng)
    if roll < 0.15, let id = live.randomElement(using: &rng) {
      counter += 1
      titles[id] = "t\(counter)"
      return .update("todos", .id(id), ["title": .string("t\(counter)")])
    }
    if roll < 0.22, live.count > 20 {
      let id = live.remove(at: Int.random(in: 0..<live.count, using: &rng))
      titles[id] = nil
      deleted.insert(id)
      return .delete("todos", .id(id))
    }
    return create(&rng, window: window)
  }
}

/// The writer's posts and profiles: whose each post is, and each profile's handle.
struct PostWriterModel {
  var authors: [String: String] = [:]
  var handles: [String: String] = [:]
  private let profiles: [String]
  private let posts: [String]
  private var counter = 0

  init(rng: inout SplitMix) {
    profiles = (0..<8).map { _ in InstantID.make(using: &rng) }
    posts = (0..<200).map { _ in InstantID.make(using: &rng) }
    for (index, profile) in profiles.enumerated() { handles[profile] = "p\(index)" }
    for post in posts { authors[post] = profiles.randomElement(using: &rng) }
  }

  func setup() -> [InstaMLOp] {
    profiles.map { .create("profiles", .id($0), ["handle": .string(handles[$0]!)]) }
      + posts.flatMap { post in
        [
          .create("posts", .id(post), ["content": "new"]),
          .link("posts", .id(post), ["author": .string(authors[post]!)]),
        ]
      }
  }

  /// A profile renamed (one in five), or a post moved to another profile.
  mutating func next(_ rng: inout SplitMix) -> [InstaMLOp] {
    counter += 1
    if Double.random(in: 0..<1, using: &rng) < 0.2 {
      let profile = profiles.randomElement(using: &rng)!
      handles[profile] = "p-\(counter)"
      return [.update("profiles", .id(profile), ["handle": .string("p-\(counter)")])]
    }
    let post = posts.randomElement(using: &rng)!
    let from = authors[post]!
    let to = profiles.filter { $0 != from }.randomElement(using: &rng)!
    authors[post] = to
    return [.unlink("posts", .id(post), ["author": .string(from)]), .link("posts", .id(post), ["author": .string(to)])]
  }
}
