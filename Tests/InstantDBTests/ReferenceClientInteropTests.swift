import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// InstantDB's reference TypeScript client (`@instantdb/core`) and ours in one app on one
/// instant-local at the same time, over a schema with a link, writing concurrently; each must see
/// the other's writes and both must end with the same data.
///
/// The reference client is not ours to commit, so it runs as a separate process — a *peer* — and
/// the test runs only when `INSTANT_JS_PEER` holds its command line; the test appends
/// `--api <http> --ws <ws> --app <app id>`. For example, with a harness that runs the core under
/// Node:
///
/// ```sh
/// INSTANT_JS_PEER="/work/jsref/venv/bin/node --import /work/jsref/loader.mjs /work/jsref/scenarios/interop-peer.mjs" \
///   swift test --filter ReferenceClientInteropTests
/// ```
///
/// The peer speaks JSON lines. It subscribes to `{todos: {owner: {}}, owners: {}}` with the schema
/// `owners {name: string}`, `todos {title: string, done: boolean, n: number}`, link
/// `todos.owner` (has one) ↔ `owners.todos` (has many), and writes on its standard output only:
/// `{"event":"result","data":…}` for every result, `{"event":"ready"}` after the first,
/// `{"event":"transacted","tag":…,"ok":…,"status":…}` and `{"event":"bursted","tag":…,"ok":…,"ids":[…],
/// "statuses":{…},"startedAt":…,"firedAt":…,"endedAt":…}` (epoch milliseconds: command read, all
/// N `db.transact` calls made, all N settled).
/// On its standard input it takes `{"cmd":"transact","tag":…,"ops":[{"op":"create"|"update"|
/// "link"|"unlink"|"delete","ns":…,"id":…,"data"|"links":…}]}` (one `db.transact` of `db.tx`
/// chains), `{"cmd":"burst","tag":…,"count":N,"prefix":…,"owner":…}` (N todos, N `db.transact`
/// calls none of which waits for another) and `{"cmd":"quit"}`.
@Suite(
  "The reference client and ours in one app",
  .serialized,
  .enabled(
    if: ReferencePeer.command != nil,
    "set INSTANT_JS_PEER to the command line of a peer that runs @instantdb/core (see ReferenceClientInteropTests)"),
  .timeLimit(.minutes(10)))
struct ReferenceClientInteropTests {
  static let query: JSON = ["todos": ["owner": [:]], "owners": [:]]

  static let schema = ClientSchema(
    entities: [
      "owners": ["name": .init("string")],
      "todos": ["title": .init("string"), "done": .init("boolean"), "n": .init("number")],
    ],
    links: [
      .init(forward: .init(on: "todos", has: .one, label: "owner"), reverse: .init(on: "owners", has: .many, label: "todos"))
    ])

  @Test("The reference client writes an owner and linked todos; we see them linked, edit, and it sees our edits")
  func linkedWritesBothWays() async throws {
    try await withBothClients { swift, peer in
      let owner = InstantID.make(), one = InstantID.make(), two = InstantID.make(), three = InstantID.make()
      let written = try await peer.transact([
        ["op": "create", "ns": "owners", "id": .string(owner), "data": ["name": "Ada"]],
        ["op": "create", "ns": "todos", "id": .string(one), "data": ["title": "js-one", "done": false, "n": 1]],
        ["op": "create", "ns": "todos", "id": .string(two), "data": ["title": "js-two", "done": false, "n": 2]],
        ["op": "link", "ns": "todos", "id": .string(one), "links": ["owner": .string(owner)]],
        ["op": "link", "ns": "todos", "id": .string(two), "links": ["owner": .string(owner)]],
      ])
      #expect(written["status"] == "synced")

      let seen = try await swift.next("our client sees the reference client's owner and both todos, linked") { result in
        let view = Snapshot(result.data)
        return !result.hasPendingWrites && view.owners == [owner: "Ada"]
          && view.todos[one] == .init(title: "js-one", done: false, n: 1, owner: owner)
          && view.todos[two] == .init(title: "js-two", done: false, n: 2, owner: owner)
      }
      // A has-one link comes back as one object on our side, as on the reference's.
      #expect(seen.rows("todos").allSatisfy { $0["owner"]?.objectValue?["name"] == "Ada" })

      try await swift.client.transact([
        .update("todos", .id(one), ["title": "js-one, edited in Swift", "done": true]),
        .create("todos", .id(three), ["title": "swift-three", "done": false, "n": 3]),
        .link("todos", .id(three), ["owner": .string(owner)]),
      ]).synced()

      let theirs = try await peer.nextResult("the reference client sees our update and our linked todo") { data in
        let view = Snapshot(data)
        return view.todos[one] == .init(title: "js-one, edited in Swift", done: true, n: 1, owner: owner)
          && view.todos[three] == .init(title: "swift-three", done: false, n: 3, owner: owner)
      }
      let ours = try await swift.next("our client has its own writes synced") { !$0.hasPendingWrites && Snapshot($0.data).todos.count == 3 }
      #expect(Snapshot(theirs) == Snapshot(ours.data))
      #expect(Snapshot(theirs).todos[two] == .init(title: "js-two", done: false, n: 2, owner: owner))
      #expect(theirs["todos"]?.arrayValue?.allSatisfy { $0["owner"]?.objectValue?["id"] == .string(owner) } == true)
    }
  }

  @Test("100 todos from each client at once, each linked to the other client's owner: both see the same 200")
  func concurrentBurstsConverge() async throws {
    try await withBothClients { swift, peer in
      let count = 100
      // Each side links its todos to the owner the *other* side made, so links cross clients too.
      let jsOwner = InstantID.make(), swiftOwner = InstantID.make()
      _ = try await peer.transact([["op": "create", "ns": "owners", "id": .string(jsOwner), "data": ["name": "js-owner"]]])
      try await swift.client.transact(.create("owners", .id(swiftOwner), ["name": "swift-owner"])).synced()
      try await swift.next("our client sees both owners") { Snapshot($0.data).owners.count == 2 }
      try await peer.nextResult("the reference client sees both owners") { Snapshot($0).owners.count == 2 }

      let clock = ContinuousClock()
      let start = clock.now
      let swiftIDs = (0..<count).map { _ in InstantID.make() }
      // The burst is sent first; our writes go out while the peer is firing its own.
      let burstTag = try await peer.send(["cmd": "burst", "count": .number(Double(count)), "prefix": "js", "owner": .string(swiftOwner)])
      let swiftStarted = Date()
      let receipts = try await withThrowingTaskGroup(of: WriteReceipt.self) { group in
        for (k, id) in swiftIDs.enumerated() {
          group.addTask {
            try await swift.client.transact([
              .create("todos", .id(id), ["title": .string("swift-\(k)"), "done": false, "n": .number(Double(k))]),
              .link("todos", .id(id), ["owner": .string(jsOwner)]),
            ])
          }
        }
        return try await group.reduce(into: [WriteReceipt]()) { $0.append($1) }
      }
      let swiftEnqueued = Date()
      for receipt in receipts { try await receipt.synced() }
      let swiftSynced = Date()
      let burst = try await peer.event("bursted", tag: burstTag)
      #expect(burst["ok"] == true, "the reference client's burst: \(burst.serialized())")
      let jsIDs = Set((burst["ids"]?.arrayValue ?? []).compactMap(\.stringValue))
      #expect(jsIDs.count == count)

      var todos: [String: Snapshot.Todo] = [:]
      for (k, id) in swiftIDs.enumerated() { todos[id] = .init(title: "swift-\(k)", done: false, n: Double(k), owner: jsOwner) }
      let jsOrder = (burst["ids"]?.arrayValue ?? []).compactMap(\.stringValue)
      for (k, id) in jsOrder.enumerated() { todos[id] = .init(title: "js-\(k)", done: false, n: Double(k), owner: swiftOwner) }
      let expected = todos
      let owners = [jsOwner: "js-owner", swiftOwner: "swift-owner"]

      // Converged: both sides hold exactly the 200 todos, each with its title and owner.
      let ours = try await swift.next(
        "our client holds all \(2 * count) todos, synced", detail: { $0.todosDiffer(from: expected) }
      ) { !$0.hasPendingWrites && Snapshot($0.data).todos == expected }
      let theirs = try await peer.nextResult(
        "the reference client holds all \(2 * count) todos", detail: { $0.todosDiffer(from: expected) }
      ) { Snapshot($0).todos == expected }
      let elapsed = clock.now - start
      #expect(Snapshot(ours.data) == Snapshot(theirs))
      #expect(Snapshot(ours.data).owners == owners)
      #expect(Set(Snapshot(theirs).todos.keys) == jsIDs.union(swiftIDs))
      // Both clients had writes in flight at the same time (one machine, so one wall clock).
      let jsStarted = try #require(burst["startedAt"]?.numberValue), jsFired = try #require(burst["firedAt"]?.numberValue)
      let jsAcknowledged = try #require(burst["endedAt"]?.numberValue)
      let ms = { (date: Date) in date.timeIntervalSince1970 * 1000 }
      let overlap = min(jsAcknowledged, ms(swiftSynced)) - max(jsStarted, ms(swiftStarted))
      #expect(overlap > 0, "the two clients' writes did not overlap in time")
      print(
        "ReferenceClientInteropTests: \(Snapshot(ours.data).todos.count) todos converged on both clients \(elapsed) after the"
          + " burst began; reference client: \(count) transacts fired in \(Int(jsFired - jsStarted)) ms, all \(burst["statuses"]?.serialized() ?? "?")"
          + " after \(Int(jsAcknowledged - jsStarted)) ms; ours: \(count) enqueued in \(Int(ms(swiftEnqueued) - ms(swiftStarted))) ms,"
          + " all synced after \(Int(ms(swiftSynced) - ms(swiftStarted))) ms; writes in flight on both sides for \(Int(overlap)) ms")
    }
  }

  /// Deleting an entity deletes its attributes and every link that points at it; the entities on
  /// the other end stay. That is InstantDB's rule (and the reference client's optimistic one):
  /// only a link declared with `onDelete: "cascade"` deletes the linked entities too, and this
  /// schema declares none. So after our delete of the reference client's owner, its todos still
  /// exist, with no owner, on both sides — and a rename of one of them sent by the reference client
  /// at the same moment is kept.
  @Test("We delete an owner the reference client made: it sees the owner gone and its todos unlinked")
  func deleteUnlinks() async throws {
    try await withBothClients { swift, peer in
      let owner = InstantID.make()
      let todos = (0..<3).map { _ in InstantID.make() }
      var ops: [JSON] = [["op": "create", "ns": "owners", "id": .string(owner), "data": ["name": "Grace"]]]
      for (k, id) in todos.enumerated() {
        ops.append(["op": "create", "ns": "todos", "id": .string(id), "data": ["title": .string("js-\(k)"), "done": false, "n": .number(Double(k))]])
        ops.append(["op": "link", "ns": "todos", "id": .string(id), "links": ["owner": .string(owner)]])
      }
      _ = try await peer.transact(ops)
      try await swift.next("our client sees the owner and its 3 todos") { result in
        let view = Snapshot(result.data)
        return view.owners == [owner: "Grace"] && view.todos.count == 3 && view.todos.values.allSatisfy { $0.owner == owner }
      }

      // At the same moment: the peer renames a todo, we delete the owner.
      let renameTag = try await peer.send([
        "cmd": "transact", "ops": [["op": "update", "ns": "todos", "id": .string(todos[0]), "data": ["title": "renamed in JS"]]],
      ])
      try await swift.client.transact(.delete("owners", .id(owner))).synced()
      let renamed = try await peer.event("transacted", tag: renameTag)
      #expect(renamed["ok"] == true, "the reference client's rename: \(renamed.serialized())")

      let expected = Dictionary(uniqueKeysWithValues: todos.enumerated().map { k, id in
        (id, Snapshot.Todo(title: k == 0 ? "renamed in JS" : "js-\(k)", done: false, n: Double(k), owner: nil))
      })
      let theirs = try await peer.nextResult("the reference client sees the owner gone and its todos unlinked") { data in
        let view = Snapshot(data)
        return view.owners.isEmpty && view.todos == expected
      }
      let ours = try await swift.next("our client sees the same") { !$0.hasPendingWrites && Snapshot($0.data) == Snapshot(theirs) }
      // Not a dangling reference either: no todo carries an `owner` member at all on either side.
      #expect(theirs["todos"]?.arrayValue?.allSatisfy { ($0["owner"] ?? .null).isNull } == true)
      #expect(ours.rows("todos").allSatisfy { ($0["owner"] ?? .null).isNull })
      #expect(ours.rows("todos").count == 3)
    }
  }

  // MARK: Helpers

  /// Runs `body` with a fresh server, a fresh app id, our client and the peer subscribed to
  /// ``query`` (each with its first server answer), then shuts both down whatever happens.
  private func withBothClients(_ body: (SwiftSide, ReferencePeer) async throws -> Void) async throws {
    let command = try #require(ReferencePeer.command)
    try await withServer { server in
      let appID = UUID().uuidString.lowercased()
      let api = URL(string: "http://127.0.0.1:\(server.port)")!
      let webSocket = URL(string: "ws://127.0.0.1:\(server.port)/runtime/session")!
      let client = InstantClient(appId: appID, apiURI: api, websocketURI: webSocket, storage: .memory, schema: Self.schema)
      let peer = try ReferencePeer(command: command, api: api, webSocket: webSocket, appID: appID)
      let swift = SwiftSide(client: client, watcher: Watcher(client.subscribe(Self.query)))
      do {
        try await swift.next("our client's first answer from the server") { !$0.isFromCache && $0.error == nil }
        _ = try await peer.event("ready")
        try await body(swift, peer)
      } catch {
        await peer.stop()
        await client.shutdown()
        throw error
      }
      await peer.stop()
      await client.shutdown()
    }
  }
}

/// Our client and its live view of ``ReferenceClientInteropTests/query``.
private struct SwiftSide: Sendable {
  let client: InstantClient
  let watcher: Watcher

  /// The latest result if it matches, else the first later one that does; on a timeout the
  /// failure shows `detail` of the last result (its counts by default).
  @discardableResult
  func next(
    _ what: String, timeout: Duration = backstop,
    detail: @escaping @Sendable (Snapshot) -> String = { $0.description },
    where predicate: @escaping @Sendable (QueryResult) -> Bool
  ) async throws -> QueryResult {
    let watcher = self.watcher
    return try await eventually(
      "\(what) (our client)", timeout: timeout, every: .milliseconds(5),
      detail: {
        guard let last = watcher.last else { return "our client: no result" }
        return "our client: \(detail(Snapshot(last.data)))\(last.hasPendingWrites ? ", with pending writes" : "")"
      }
    ) { watcher.last.flatMap { predicate($0) ? $0 : nil } }
  }
}

/// What both clients' answers to ``ReferenceClientInteropTests/query`` are compared by: todos by
/// id (with the id of their owner, or nil when unlinked) and owners' names by id. Key order, row
/// order and an absent versus a `null` owner do not matter.
private struct Snapshot: Equatable, CustomStringConvertible {
  struct Todo: Equatable {
    var title: String?
    var done: Bool?
    var n: Double?
    var owner: String?
  }

  var todos: [String: Todo] = [:]
  var owners: [String: String?] = [:]

  init(_ data: JSON) {
    for row in data["todos"]?.arrayValue ?? [] {
      guard let id = row["id"]?.stringValue else { continue }
      todos[id] = Todo(
        title: row["title"]?.stringValue, done: row["done"]?.boolValue, n: row["n"]?.numberValue,
        owner: row["owner"]?["id"]?.stringValue)
    }
    for row in data["owners"]?.arrayValue ?? [] {
      guard let id = row["id"]?.stringValue else { continue }
      owners[id] = row["name"]?.stringValue
    }
  }

  var description: String { "\(todos.count) todos, owners \(owners)" }

  /// How `todos` differs from `expected`, a few of each kind named.
  func todosDiffer(from expected: [String: Todo]) -> String {
    let missing = expected.keys.filter { todos[$0] == nil }.sorted()
    let unexpected = todos.keys.filter { expected[$0] == nil }.sorted()
    let changed = expected.keys.filter { todos[$0] != nil && todos[$0] != expected[$0] }.sorted()
    func some(_ ids: [String], _ from: [String: Todo]) -> String {
      ids.prefix(3).map { "\($0) \(from[$0].map { "\($0)" } ?? "")" }.joined(separator: "; ")
    }
    return "\(todos.count) todos of \(expected.count) expected; missing \(missing.count) [\(some(missing, expected))],"
      + " unexpected \(unexpected.count) [\(some(unexpected, todos))], different \(changed.count) [\(some(changed, todos))]"
  }
}

/// The reference client in its own process (see ``ReferenceClientInteropTests``): commands go to
/// its standard input, and what it prints is read in the background.
private actor ReferencePeer {
  /// `INSTANT_JS_PEER`, when set and not empty.
  static let command: String? = ProcessInfo.processInfo.environment["INSTANT_JS_PEER"].flatMap { $0.isEmpty ? nil : $0 }

  private let process: Process
  private let input: FileHandle
  private var nextTag = 0
  /// Every event but results, in order; the latest result's data; what the peer said on stderr.
  private nonisolated let state = Locked(State())

  private struct State: Sendable {
    var events: [JSON] = []
    var latestResult: JSON?
    var resultCount = 0
    var pendingOutput: [UInt8] = []
    var stderrTail = ""
    var exitStatus: Int32?
  }

  init(command: String, api: URL, webSocket: URL, appID: String) throws {
    let process = Process()
    // Through the shell so that the command line may carry arguments; `exec` so that the shell is
    // replaced and terminating the process ends the peer itself.
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "exec \(command) \"$@\"", "instant-js-peer",
      "--api", api.absoluteString, "--ws", webSocket.absoluteString, "--app", appID,
    ]
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    self.process = process
    input = stdin.fileHandleForWriting
    let state = self.state
    stdout.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
        return
      }
      state.withLock { state in
        state.pendingOutput.append(contentsOf: data)
        while let newline = state.pendingOutput.firstIndex(of: UInt8(ascii: "\n")) {
          let line = state.pendingOutput[..<newline]
          state.pendingOutput.removeSubrange(...newline)
          guard let event = try? JSON.parse(bytes: line) else {
            state.events.append(["event": "unreadable", "line": .string(String(decoding: line, as: UTF8.self))])
            continue
          }
          if event["event"] == "result" {
            state.latestResult = event["data"] ?? .null
            state.resultCount += 1
          } else {
            state.events.append(event)
          }
        }
      }
    }
    stderr.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
        return
      }
      state.withLock { state in
        state.stderrTail = String((state.stderrTail + String(decoding: data, as: UTF8.self)).suffix(4000))
      }
    }
    process.terminationHandler = { process in
      let status = process.terminationStatus
      state.withLock { $0.exitStatus = status }
    }
    try process.run()
  }

  /// Sends `command` with a fresh `tag` and returns the tag, which the peer's reply carries.
  func send(_ command: JSON) throws -> JSON {
    nextTag += 1
    let tag = JSON.number(Double(nextTag))
    var command = command.objectValue ?? [:]
    command["tag"] = tag
    try input.write(contentsOf: Data((JSON.object(command).serialized() + "\n").utf8))
    return tag
  }

  /// Runs `ops` as one transaction in the reference client and returns its `transacted` reply,
  /// which must be `ok`.
  @discardableResult
  func transact(_ ops: [JSON]) async throws -> JSON {
    let tag = try send(["cmd": "transact", "ops": .array(ops)])
    let reply = try await event("transacted", tag: tag)
    try #require(reply["ok"] == true, "the reference client's transaction failed: \(reply.serialized())")
    return reply
  }

  /// The first event named `name` (with `tag`, if given) the peer printed.
  nonisolated func event(_ name: String, tag: JSON? = nil, timeout: Duration = backstop) async throws -> JSON {
    try await eventually("the reference client's \(name) event", timeout: timeout, every: .milliseconds(5), detail: { diagnostics() }) {
      let (found, status, stderr) = self.state.withLock { state in
        (
          state.events.first { $0["event"] == .string(name) && (tag == nil || $0["tag"] == tag) },
          state.exitStatus, state.stderrTail
        )
      }
      if let found { return found }
      if let status { throw PeerExited(status: status, stderr: stderr) }
      return nil
    }
  }

  /// The peer's latest result if it matches, else the first later one that does.
  @discardableResult
  nonisolated func nextResult(
    _ what: String, timeout: Duration = backstop,
    detail: @escaping @Sendable (Snapshot) -> String = { $0.description },
    where predicate: @escaping @Sendable (JSON) -> Bool
  ) async throws -> JSON {
    try await eventually("\(what) (reference client)", timeout: timeout, every: .milliseconds(5), detail: { diagnostics(detail) }) {
      let (latest, status, stderr) = self.state.withLock { ($0.latestResult, $0.exitStatus, $0.stderrTail) }
      if let latest, predicate(latest) { return latest }
      if let status { throw PeerExited(status: status, stderr: stderr) }
      return nil
    }
  }

  /// Asks the peer to quit, and ends it if it has not within five seconds.
  func stop() async {
    _ = try? send(["cmd": "quit"])
    try? input.close()
    do {
      try await eventually("the reference client exits") { self.state.withLock { $0.exitStatus != nil } }
    } catch {
      if process.isRunning { process.terminate() }
    }
  }

  private nonisolated func diagnostics(_ detail: (Snapshot) -> String = { $0.description }) -> String {
    state.withLock { state in
      let latest = state.latestResult.map { detail(Snapshot($0)) } ?? "none"
      return "peer: \(state.resultCount) results, latest \(latest); events \(state.events.suffix(5).map { $0.serialized() }); stderr: \(state.stderrTail.suffix(1000))"
    }
  }
}

/// The peer process ended while the test still waited on it.
private struct PeerExited: Error, CustomStringConvertible {
  var status: Int32
  var stderr: String
  var description: String { "the reference client exited with status \(status); stderr: \(stderr)" }
}
