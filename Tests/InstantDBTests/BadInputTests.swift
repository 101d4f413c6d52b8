import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// Malformed and unexpected server frames are logged and skipped; the client carries on.
@Suite("Client bad input", .timeLimit(.minutes(10)))
struct ClientBadInputTests {
  static let garbage: [String] = [
    "", "not json", "{", "[1,2", "42", "\"text\"", "null", "[]", "[42, \"x\"]", "{}", "{\"op\": 7}",
    "{\"op\": \"refresh-ok\", \"computations\": \"no\"}",
    "{\"op\": \"refresh-ok\", \"computations\": [{\"instaql-query\": {\"todos\": {}}, \"instaql-result\": 5}]}",
    "{\"op\": \"refresh-ok\", \"computations\": [{\"instaql-query\": {\"todos\": {}}}]}",
    "{\"op\": \"refresh-ok\", \"attrs\": \"nope\", \"computations\": []}",
    "{\"op\": \"add-query-ok\", \"q\": {\"todos\": {}}, \"result\": [{\"data\": {\"datalog-result\": {\"join-rows\": [[[1], \"x\", null]]}}}]}",
    "{\"op\": \"transact-ok\", \"client-event-id\": \"unknown\", \"tx-id\": 5}",
    "{\"op\": \"transact-ok\"}",
    "{\"op\": \"error\"}",
    "{\"op\": \"error\", \"original-event\": {\"op\": \"add-query\", \"q\": {\"nobody\": {}}}}",
    "{\"op\": \"init-ok\", \"attrs\": 12}",
    "{\"op\": \"app-status-changed\", \"status\": \"sleepy\"}",
    "{\"op\": \"some-future-op\", \"x\": 1}",
    "[{\"op\": \"remove-query-ok\"}, {\"op\": \"nonsense\"}, 3]",
  ]

  @Test("Every malformed frame is skipped and sync goes on")
  func malformedFrames() async throws {
    let reported = [
      "skipped a frame that is not JSON (0 bytes)", "skipped a frame that is not JSON (8 bytes)",
      "skipped a frame that is not JSON (1 bytes)", "skipped a frame that is not JSON (4 bytes)",
      "skipped a frame that is neither an object nor an array", "skipped a message without an op",
      "skipped refresh-ok without instaql-result in a computation",
      "skipped an attr table that does not parse: attrs must be an array or an object keyed by id",
      "skipped 3 malformed triples in a server result", "skipped transact-ok without a tx-id",
      "server error: the server refused the request", "skipped an init-ok on a socket that already had one",
      "unknown app status sleepy", "skipped an unknown op some-future-op", "skipped an unknown op nonsense",
      "a result lost step with the server (2 triples, the server counts 4); asking for it again",
    ]
    try await withServer(expectingErrors: reported) { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let watchA = Watcher(a.subscribe(["todos": [:]]))
      try await watchA.next { !$0.isFromCache }
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "before"])).synced()

      for frame in Self.garbage { transport.inject(frame) }

      try await b.transact(.update("todos", .id(InstantID.make()), ["title": "after"])).synced()
      let result = try await watchA.next { Set($0.column("todos", "title")) == ["before", "after"] }
      #expect(result.error == nil)
      let status = await a.status
      #expect(status == .authenticated)
    }
  }

  @Test("Replayed frames change nothing: a second init-ok re-sends nothing, an older result is not shown")
  func replayedFrames() async throws {
    let reported = ["skipped an init-ok on a socket that already had one", "skipped a result for tx 0, older than the one shown (1)"]
    try await withServer(expectingErrors: reported) { server in
      let transport = InjectingTransport()
      let captured = transport.recordIncoming()
      let a = server.client(transport: transport)
      defer { Task { await a.shutdown() } }
      let watch = Watcher(a.subscribe(["todos": [:]]))
      try await watch.next { !$0.isFromCache }
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "kept"])).synced()
      try await watch.next { $0.column("todos", "title") == ["kept"] && !$0.hasPendingWrites }
      let initOK = try #require(captured.withLock { $0 }.first { $0.contains("\"init-ok\"") })
      let emptyResult = try #require(captured.withLock { $0 }.first { $0.contains("\"add-query-ok\"") })
      let sentBefore = transport.sent.count

      transport.inject(initOK)
      transport.inject(emptyResult)  // the first answer, before "kept" existed
      // Frames are handled in order: once this one has been, so have the replays.
      transport.inject(#"{"op": "app-status-changed", "status": "read-only"}"#)
      try await eventually("the frames after the replays are handled") { await a.appStatus == .readOnly }
      let shown = Watcher(a.subscribe(["todos": [:]]))  // starts with what the query shows now
      let current = try await shown.next { _ in true }
      #expect(current.column("todos", "title") == ["kept"], "the replayed older result is not shown")
      transport.inject(#"{"op": "app-status-changed", "status": "active"}"#)
      try await eventually("the app is active again") { await a.appStatus == .active }
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "after"])).synced()
      let result = try await watch.next { Set($0.column("todos", "title")) == ["kept", "after"] && !$0.hasPendingWrites }
      #expect(result.error == nil)
      let resent = transport.sent[sentBefore...].filter { $0.contains("\"add-query\"") }
      #expect(resent.isEmpty, "a replayed init-ok re-sent \(resent.count) add-query")
      #expect(transport.sent[sentBefore...].filter { $0.contains("\"transact\"") }.count == 1)
    }
  }

  @Test("A read-only app refuses writes at once with a clear error; reads keep working")
  func readOnlyApp() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      defer { Task { await a.shutdown() } }
      let watch = Watcher(a.subscribe(["todos": [:]]))
      try await watch.next { !$0.isFromCache }

      transport.inject(#"{"op": "app-status-changed", "status": "read-only"}"#)
      try await eventually("the app is read-only") { await a.appStatus == .readOnly }
      let error = await #expect(throws: InstantClientError.self) {
        try await a.transact(.update("todos", .id(InstantID.make()), ["title": "x"]))
      }
      #expect(error?.kind == .appReadOnly)
      let pending = await a.pendingWrites
      #expect(pending.isEmpty)

      transport.inject(#"{"op": "app-status-changed", "status": "active"}"#)
      try await eventually("the app is active") { await a.appStatus == .active }
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "x"])).synced()
      try await watch.next { $0.column("todos", "title") == ["x"] }
    }
  }

  @Test("Frames on the wire: init first, then add-query, then transact, shaped as the reference sends them")
  func wireFrames() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      defer { Task { await a.shutdown() } }
      let watch = Watcher(a.subscribe(["goals": ["todos": [:]]]))
      try await watch.next { !$0.isFromCache }
      let goal = InstantID.make()
      try await a.transact(.update("goals", .id(goal), ["title": "Get fit"])).synced()

      let frames = try transport.sent.map { try JSON.parse($0) }
      #expect(frames.first?["op"] == "init", "init is the first frame")
      let initFrame = try #require(frames.first)
      #expect(initFrame["app-id"] == .string(LocalServer.appID))
      #expect(initFrame["versions"]?["@instantdb/core"] == "v1.0.65")
      #expect(initFrame["client-event-id"]?.stringValue.map(Self.isLowerUUID) == true)

      let addQuery = try #require(frames.first { $0["op"] == "add-query" })
      #expect(addQuery["q"] == ["goals": ["todos": [:]]])
      #expect(Set(addQuery.objectValue!.keys) == ["op", "client-event-id", "q"])

      let transact = try #require(frames.first { $0["op"] == "transact" })
      #expect(Set(transact.objectValue!.keys) == ["op", "client-event-id", "tx-steps", "created", "order"])
      #expect(transact["order"] == 1)
      let steps = try #require(transact["tx-steps"]?.arrayValue)
      // add-attrs first, then the id triple, then the data (docs/protocol.md, "InstaML expansion").
      let ops = steps.compactMap { $0[0]?.stringValue }
      #expect(ops == ["add-attr", "add-attr", "add-triple", "add-triple"])
      #expect(steps[2][1] == .string(goal) && steps[2][3] == .string(goal))
      #expect(steps[3][3] == "Get fit")
    }
  }

  @Test("After a reconnect: init, the live queries with their original ids, then unacknowledged writes in order")
  func resendOrder() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      defer { Task { await a.shutdown() } }
      let watch = Watcher(a.subscribe(["todos": [:]]))
      try await watch.next { !$0.isFromCache }
      await a.setNetworkAvailable(false)
      try await eventually("A goes offline") { await a.status == .closed }
      let first = try await a.transact(.update("todos", .id(InstantID.make()), ["title": "1"]))
      let second = try await a.transact(.update("todos", .id(InstantID.make()), ["title": "2"]))
      let before = transport.sent.count
      await a.setNetworkAvailable(true)
      try await second.synced()

      let frames = try transport.sent[before...].map { try JSON.parse($0) }
      let ops = frames.compactMap { $0["op"]?.stringValue }
      #expect(Array(ops.prefix(4)) == ["init", "add-query", "transact", "transact"])
      let originalAddQuery = try transport.sent[..<before].map { try JSON.parse($0) }.first { $0["op"] == "add-query" }
      #expect(frames[1]["client-event-id"] == originalAddQuery?["client-event-id"], "re-sent with its original id")
      #expect(frames[2]["client-event-id"] == .string(first.id))
      #expect(frames[3]["client-event-id"] == .string(second.id))
      #expect(frames[2]["order"] == 1 && frames[3]["order"] == 2)
    }
  }

  @Test("remove-query when the last subscriber leaves, one add-query however many subscribe")
  func addAndRemoveQuery() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      defer { Task { await a.shutdown() } }
      let query: JSON = ["todos": ["$": ["where": ["done": false], "order": ["serverCreatedAt": "asc"]]]]
      let one = Watcher(a.subscribe(query))
      // The same query with its keys in another order is the same query.
      let two = Watcher(a.subscribe(["todos": ["$": ["order": ["serverCreatedAt": "asc"], "where": ["done": false]]]]))
      try await one.next { !$0.isFromCache }
      try await two.next { !$0.isFromCache }
      one.stop()
      try await Task.sleep(for: .milliseconds(100))
      #expect(!transport.sent.contains { $0.contains("remove-query") })
      two.stop()
      try await eventually("remove-query is sent") { transport.sent.contains { $0.contains("remove-query") } }
      let frames = try transport.sent.map { try JSON.parse($0) }
      #expect(frames.filter { $0["op"] == "add-query" }.count == 1)
      let remove = try #require(frames.first { $0["op"] == "remove-query" })
      #expect(Set(remove.objectValue!.keys) == ["op", "client-event-id", "q"])
      #expect(remove["q"] == query)
    }
  }

  static func isLowerUUID(_ s: String) -> Bool {
    UUID(uuidString: s) != nil && s == s.lowercased()
  }
}
