import Foundation
import GRDB
import InstantCore
import TestSupport
import Testing

@testable import InstantDB
internal import OrderedCollections

/// The reactor's own glue, with a scripted socket and no server: the test answers each frame the
/// client sends as the server would, so the order of what the client does and which request an
/// answer is matched to are checked exactly, with nothing left to timing.
@Suite("The reactor's glue, on a scripted socket", .timeLimit(.minutes(10)))
final class ReactorGlueTests {
  /// Each test's own folder, for the tests that need the client's file.
  let directory = temporaryDirectory()
  var file: URL { directory.appendingPathComponent("client.sqlite") }
  deinit { try? FileManager.default.removeItem(at: directory) }

  static func client(_ transport: ScriptedTransport, storage: InstantStorage, errors: ExpectedErrors) -> InstantClient {
    InstantClient(
      appId: LocalServer.appID, apiURI: URL(string: "http://127.0.0.1:9")!,
      websocketURI: URL(string: "ws://127.0.0.1:9/runtime/session")!, storage: storage, transport: transport,
      logger: errors.logger)
  }

  /// Waits for the client's first socket and its `init`, and answers `init-ok`.
  static func openSession(_ transport: ScriptedTransport) async throws -> (ScriptedTransport.Socket, AsyncStream<JSON>.Iterator) {
    var sockets = transport.openedSockets.makeAsyncIterator()
    guard let socket = await sockets.next() else { throw ScriptError("no socket opened") }
    var sent = socket.sent.makeAsyncIterator()
    let initFrame = try await sent.next(op: "init")
    socket.answer([
      "op": "init-ok", "session-id": "s1", "client-event-id": initFrame["client-event-id"] ?? .null,
      "auth": ["user": .null], "attrs": [],
    ])
    return (socket, sent)
  }

  /// `add-query-ok` for the `add-query` frame `request`, with an empty result.
  static func emptyResult(for request: JSON) -> JSON {
    [
      "op": "add-query-ok", "q": request["q"] ?? .null, "result": [["data": ["datalog-result": ["join-rows": []]]]],
      "processed-tx-id": 0, "client-event-id": request["client-event-id"] ?? .null,
    ]
  }

  @Test("A write is shown and saved on the device before its frame is sent")
  func savedBeforeSent() async throws {
    let file = file
    let transport = ScriptedTransport()
    let errors = ExpectedErrors([])
    let db = Self.client(transport, storage: .sqlite(file), errors: errors)
    defer { Task { await db.shutdown() } }
    // What the device holds at the moment the transact frame goes out.
    let savedWhenSent = Locked<[Int]>([])
    transport.onSend.withLock {
      $0 = { frame in
        guard frame["op"] == "transact" else { return }
        let count = (try? DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM mutation") }) ?? nil
        savedWhenSent.withLock { $0.append(count ?? -1) }
      }
    }
    var (socket, sent) = try await Self.openSession(transport)
    var iterator = db.subscribe(["todos": [:]]).makeAsyncIterator()
    socket.answer(Self.emptyResult(for: try await sent.next(op: "add-query")))
    var empty = false
    while !empty, let result = await iterator.next() { empty = !result.isFromCache && result.data["todos"] == [] }
    try await db.transact(.update("todos", .id(InstantID.make()), ["title": "one"]))
    // Shown: the subscriber's result has the row (from the local store; the server never answered).
    var shown = false
    while !shown, let result = await iterator.next() { shown = result.data["todos"]?.arrayValue?.count == 1 }
    #expect(shown)
    let frame = try await sent.next(op: "transact")
    #expect(savedWhenSent.withLock { $0 } == [1], "the write was on disk when its frame was sent")
    #expect(frame["tx-steps"]?.arrayValue?.isEmpty == false)
    errors.check()
  }

  @Test("The reactor takes the server's messages while the disk is busy; what they change reaches the file, in order, before it closes")
  func messagesWhileTheDiskIsBusy() async throws {
    let file = file
    let transport = ScriptedTransport()
    let errors = ExpectedErrors([])
    let db = Self.client(transport, storage: .sqlite(file), errors: errors)
    var (socket, sent) = try await Self.openSession(transport)
    let results = Locked<[QueryResult]>([])
    let reader = Task {
      for await result in db.subscribe(["todos": [:]]) { results.withLock { $0.append(result) } }
    }
    defer { reader.cancel() }
    socket.answer(Self.emptyResult(for: try await sent.next(op: "add-query")))
    let write = try await db.transact(.update("todos", .id(InstantID.make()), ["title": "one"]))
    _ = try await sent.next(op: "transact")
    try await eventually("the write is shown") { results.withLock { $0.last?.data["todos"]?.arrayValue?.count == 1 } }

    // The disk is held: every write to the file waits behind this one until the gate opens.
    let gate = DispatchSemaphore(value: 0)
    db.reactor.storage.later("hold the disk", errors.logger) { _ in gate.wait() }
    var opened = false
    defer { if !opened { gate.signal() } }
    // The write is acknowledged (recorded on disk), then a result reflecting it arrives: the write
    // leaves the queue (deleted from disk) and the result replaces what it showed.
    socket.answer(["op": "transact-ok", "tx-id": 7, "client-event-id": .string(write.id)])
    socket.answer([
      "op": "refresh-ok", "processed-tx-id": 7,
      "computations": [["instaql-query": ["todos": [:]], "instaql-result": [["data": ["datalog-result": ["join-rows": []]]]]]],
    ])
    // Delivered with the disk still held: the reactor did not wait on it.
    try await eventually("the result reflecting the write arrives while the disk is held") {
      results.withLock { $0.last.map { !$0.isFromCache && $0.data["todos"] == [] } ?? false }
    }
    #expect(try await write.synced() == 7)
    gate.signal()
    opened = true
    // Shutdown closes the file after every queued write: the row was updated, then deleted.
    await db.shutdown()
    let rows = try await DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM mutation") }
    #expect(rows == 0, "the finished write was deleted from the file")
    errors.check()
  }

  @Test("A task waiting for a write's answer stops waiting when it is cancelled; the write stays pending")
  func cancelledWaitForAnAnswer() async throws {
    let transport = ScriptedTransport()
    let errors = ExpectedErrors([])
    let db = Self.client(transport, storage: .memory, errors: errors)
    defer { Task { await db.shutdown() } }
    var (_, sent) = try await Self.openSession(transport)
    let write = try await db.transact(.update("todos", .id(InstantID.make()), ["title": "one"]))
    _ = try await sent.next(op: "transact")
    // The server never answers: only the cancellation can end the wait.
    let ended = Locked<InstantClientError?>(nil)
    let waiter = Task {
      do throws(InstantClientError) { try await write.synced() } catch { ended.withLock { $0 = error } }
    }
    // Cancelled once it waits (not before it starts, which is a check of its own).
    try await eventually("the task waits for the answer") { await db.reactor.syncWaiters[write.id]?.count == 1 }
    waiter.cancel()
    try await eventually("the cancelled wait ends") { ended.withLock { $0 != nil } }
    #expect(ended.withLock { $0?.kind } == .cancelled)
    #expect(await db.pendingWrites.map(\.id) == [write.id], "the write is still pending")
    errors.check()
  }

  @Test("Each answer reaches the request whose id it carries: one write refused, the one beside it acknowledged, a query's error to that query alone")
  func answersMatchTheirRequests() async throws {
    let transport = ScriptedTransport()
    let errors = ExpectedErrors(["the server rejected a write: Permission denied: not yours"])
    let db = Self.client(transport, storage: .memory, errors: errors)
    defer { Task { await db.shutdown() } }
    var (socket, sent) = try await Self.openSession(transport)

    let first = try await db.transact(.update("todos", .id(InstantID.make()), ["title": "first"]))
    let second = try await db.transact(.update("todos", .id(InstantID.make()), ["title": "second"]))
    let firstFrame = try await sent.next(op: "transact")
    let secondFrame = try await sent.next(op: "transact")
    #expect(firstFrame["client-event-id"] == .string(first.id) && secondFrame["client-event-id"] == .string(second.id))
    // The server answers out of order: the second is refused, then the first is acknowledged.
    socket.answer([
      "op": "error", "status": 400, "client-event-id": .string(second.id), "type": "permission-denied",
      "message": "Permission denied: not yours", "hint": [:], "original-event": ["op": "transact"],
    ])
    socket.answer(["op": "transact-ok", "tx-id": 7, "client-event-id": .string(first.id)])
    #expect(try await first.synced() == 7)
    do {
      try await second.synced()
      Issue.record("the refused write was acknowledged")
    } catch {
      #expect(error.isPermissionDenied)
      #expect(error.message == "Permission denied: not yours")
    }

    // A query's refusal is matched by its query: its subscriber gets the error, the other does not.
    let refused: JSON = ["secrets": [:]]
    var refusedResults = db.subscribe(refused).makeAsyncIterator()
    let addRefused = try await sent.next(op: "add-query")
    var fineResults = db.subscribe(["todos": [:]]).makeAsyncIterator()
    socket.answer(Self.emptyResult(for: try await sent.next(op: "add-query")))
    socket.answer([
      "op": "error", "status": 400, "client-event-id": addRefused["client-event-id"] ?? .null, "type": "permission-denied",
      "message": "Permission denied: no secrets", "hint": [:], "original-event": ["op": "add-query", "q": refused],
    ])
    var refusedError: InstantClientError?
    while refusedError == nil, let result = await refusedResults.next() { refusedError = result.error }
    #expect(refusedError?.message == "Permission denied: no secrets")
    var fine: QueryResult?
    while fine == nil, let result = await fineResults.next() { if !result.isFromCache { fine = result } }
    #expect(fine?.error == nil)
    let pending = await db.pendingWrites
    #expect(!pending.contains { $0.id == second.id }, "the refused write is gone")
    #expect(pending.allSatisfy { $0.id != first.id || $0.state == .synced })
    errors.check()
  }
}
