import Foundation
@testable import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// `InstantAdmin.subscribeQuery` against a running instant-local: live results over server-sent
/// events, under the rules when impersonating, ending with the reader, surviving a server restart.
@Suite("admin subscribeQuery", .timeLimit(.minutes(10)))
struct AdminSubscribeTests {
  /// The next result of `updates`, failing on an error update or the end of the stream.
  static func nextResult(
    _ updates: inout AsyncThrowingStream<AdminQueryUpdate, any Error>.Iterator
  ) async throws -> JSON {
    switch try await updates.next() {
    case let .result(data)?: return data
    case let .error(error)?: throw error
    case nil: throw InstantAdminError(.badResponse, "the stream ended")
    }
  }

  @Test("The first result, then one after each write by the admin or a client; cancelling ends the server's session")
  func liveResults() async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.pingInterval = .milliseconds(200)  // how often an idle stream is checked
    try await AdminWorld.run(configuration: configuration) { world in
      let stream = world.admin.subscribeQuery(["todos": [:]])
      var updates = stream.makeAsyncIterator()
      #expect(try await Self.nextResult(&updates) == ["todos": []])
      #expect(await world.server.sessionCount(appID: world.app.id) == 1)

      let id = newID()
      try await world.admin.transact([.update("todos", .id(id), ["title": "From the backend"])])
      #expect(try await Self.nextResult(&updates) == ["todos": [["id": .string(id), "title": "From the backend"]]])

      let db = InstantClient(
        appId: world.app.id, apiURI: world.baseURL, websocketURI: try #require(await world.server.webSocketURL), storage: .memory)
      try await db.transact([InstaMLOp.update("todos", .id(id), ["done": true])]).synced()
      let fromClient = try await Self.nextResult(&updates)
      #expect(fromClient["todos"]?[0]?["done"] == true)
      await db.shutdown()

      let reader = Task { for try await _ in stream {} }
      reader.cancel()
      _ = await reader.result
      try await eventually("the server closed the stream's session") { await world.server.sessionCount(appID: world.app.id) == 0 }
    }
  }

  @Test("As a guest the rules apply; a wrong token ends the stream with the server's refusal")
  func rulesAndRefusal() async throws {
    try await AdminWorld.run { world in
      try await world.admin.pushRules(["todos": ["allow": ["view": "data.shared == true"]]])
      try await world.admin.transact([
        .update("todos", .id(newID()), ["title": "mine", "shared": false]),
        .update("todos", .id(newID()), ["title": "ours", "shared": true]),
      ])
      var guest = world.admin.asGuest().subscribeQuery(["todos": [:]]).makeAsyncIterator()
      let visible = try await Self.nextResult(&guest)
      #expect(visible["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["ours"])

      let stranger = InstantAdmin(appID: world.app.id, adminToken: newID(), apiURI: world.baseURL)
      var refused = stranger.subscribeQuery(["todos": [:]]).makeAsyncIterator()
      let error = await #expect(throws: InstantAdminError.self) { _ = try await refused.next() }
      #expect(error?.server?.type == .recordNotFound)
    }
  }

  @Test("Without inference a has-one link is an array; with it, one entity")
  func inference() async throws {
    try await AdminWorld.run { world in
      let post = newID()
      let author = newID()
      try await world.addHasOneLink("posts", "author", to: "authors", reverse: "posts")
      try await world.admin.transact([.update("authors", .id(author), ["name": "Ann"]), .update("posts", .id(post), ["text": "Hi"])])
      try await world.admin.transact([.link("posts", .id(post), ["author": .string(author)])])
      var plain = world.admin.subscribeQuery(["posts": ["author": [:]]]).makeAsyncIterator()
      #expect(try await Self.nextResult(&plain)["posts"]?[0]?["author"]?[0]?["name"] == "Ann")
      var inferred = world.admin.subscribeQuery(["posts": ["author": [:]]], inference: true).makeAsyncIterator()
      #expect(try await Self.nextResult(&inferred)["posts"]?[0]?["author"]?["name"] == "Ann")
    }
  }

  @Test("The server stops and comes back on the same port: the stream reconnects and goes on")
  func reconnects() async throws {
    // Which step the test is at: a step that never ends is named, before the time limit ends the
    // test without saying where.
    let step = Locked("starting the first server")
    let clock = ContinuousClock()
    let started = clock.now
    let watchdog = Task {
      try await Task.sleep(for: backstop)
      let (at, since) = step.withLock { ($0, clock.now - started) }
      Issue.record("still at \"\(at)\" after \(since)")
    }
    defer { watchdog.cancel() }
    func at(_ what: String) { step.withLock { $0 = "\(what) (from \(clock.now - started))" } }
    try await BackupRestoreTests.withDirectory { directory in
      let file = directory.appendingPathComponent("app.sqlite").path
      var configuration = InstantLocalConfiguration.testing(dataFile: file)
      configuration.port = portForRestarts()
      let first = try InstantLocalServer(configuration: configuration, logger: .instantLocalTesting)
      let port = try await first.start()
      let app = try first.apps.create(title: "Reconnects")
      let admin = InstantAdmin(appID: app.id, adminToken: app.adminToken, apiURI: URL(string: "http://127.0.0.1:\(port)")!)
      var updates = admin.subscribeQuery(["todos": [:]]).makeAsyncIterator()
      at("the first result")
      #expect(try await Self.nextResult(&updates) == ["todos": []])
      at("stopping the first server")
      await first.stop()

      at("starting the second server")
      let second = try InstantLocalServer(configuration: configuration, logger: .instantLocalTesting)
      _ = try await second.start()
      let id = newID()
      at("the admin's write to the second server")
      try await admin.transact([.update("todos", .id(id), ["title": "After the restart"])])
      // The reconnected stream's first result may predate the write; the write's result follows.
      at("the reconnected stream's first result")
      var latest = try await Self.nextResult(&updates)
      if latest["todos"] == [] {
        at("the reconnected stream's result with the write")
        latest = try await Self.nextResult(&updates)
      }
      #expect(latest == ["todos": [["id": .string(id), "title": "After the restart"]]])
      at("stopping the second server")
      await second.stop()
    }
  }

  @Test("Events cut anywhere: split across chunks, CRLF, comments, retry, multi-line data")
  func parser() {
    var parser = EventStreamParser()
    #expect(parser.feed(Data("retry: 250\n\n: heartbeat\n\nda".utf8)) == [])
    #expect(parser.retryMilliseconds == 250)
    #expect(parser.feed(Data("ta: {\"op\":\"sse-init\"}\n".utf8)) == [])
    #expect(parser.feed(Data("\ndata:one\r\ndata: two\r\n\r\ndata: three\n\n".utf8)) == [#"{"op":"sse-init"}"#, "one\ntwo", "three"])
    #expect(parser.feed(Data("event: x\n\n".utf8)) == [])
  }
}
