import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// `POST /admin/subscribe-query` (the admin SDK's `subscribeQuery`, docs/admin.md) over a real
/// socket: server-sent events carrying `sse-init`, the first result as a tree, then `refresh-ok`
/// on every change; under the rules when impersonating; ended when the reader goes away.
@Suite("Admin subscribe-query")
struct SubscribeQueryTests {
  struct Stream {
    let port: Int
    let app: AppCatalog.CreatedApp

    /// Opens a stream of `query` with `headers` added to the app's, and runs `body` on it.
    func open<T: Sendable>(
      _ query: JSON, headers extra: [String: String] = [:], inference: Bool = false, token: String? = nil,
      _ body: (inout RawConnection.Session, RawConnection.Response) async throws -> T
    ) async throws -> T {
      let json = (["query": query, "inference?": .bool(inference)] as JSON).serialized()
      var head = "POST /admin/subscribe-query?app_id=\(app.id) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
      head += "Content-Type: application/json\r\nAccept: text/event-stream\r\n"
      head += "app-id: \(app.id)\r\nAuthorization: Bearer \(token ?? app.adminToken)\r\n"
      for (name, value) in extra { head += "\(name): \(value)\r\n" }
      head += "Content-Length: \(json.utf8.count)\r\n\r\n\(json)"
      let request = head
      return try await RawConnection.with(port: port) { session in
        #expect(await session.send(request))
        let response = try #require(await session.readResponse())
        return try await body(&session, response)
      }
    }
  }

  func transact(_ server: InstantLocalServer, _ app: AppCatalog.CreatedApp, _ steps: JSON) async throws {
    let base = try #require(await server.baseURL)
    let answer = try await FileHTTP.send(
      "POST", base.appendingPathComponent("admin/transact"),
      headers: ["app-id": app.id, "authorization": "Bearer \(app.adminToken)", "content-type": "application/json"],
      body: Data((["steps": steps] as JSON).serialized().utf8))
    #expect(answer.status == 200, "\(answer.json)")
  }

  @Test("sse-init, the first result as a tree, then each change as refresh-ok; the session ends with the reader")
  func liveResults() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Streams")
      let stream = Stream(port: try #require(await server.port), app: app)
      let id = UUID().uuidString.lowercased()
      try await stream.open(["todos": [:]]) { session, response in
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/event-stream")
        let hello = try #require(await session.nextEvent())
        #expect(hello["op"] == "sse-init")
        #expect(hello["session-id"]?.stringValue != nil)
        let first = try #require(await session.nextEvent())
        #expect(first["op"] == "add-query-ok")
        #expect(first["result"] == ["todos": []])
        #expect(await server.sessionCount(appID: app.id) == 1)

        try await transact(server, app, [["update", "todos", .string(id), ["title": "Ship"]]])
        let changed = try #require(await session.nextEvent())
        #expect(changed["op"] == "refresh-ok")
        #expect(changed["computations"]?[0]?["instaql-result"] == ["todos": [["id": .string(id), "title": "Ship"]]])

        try await transact(server, app, [["update", "todos", .string(id), ["title": "Shipped"]]])
        let again = try #require(await session.nextEvent())
        #expect(again["computations"]?[0]?["instaql-result"]?["todos"]?[0]?["title"] == "Shipped")
        // No attr changed: the attrs table is not sent again (as to a modern client's socket).
        #expect(again["attrs"] == nil)
      }
      // The reader went away: the next message fails to write and the session ends.
      try await transact(server, app, [["update", "todos", .string(id), ["title": "Gone"]]])
      try await eventually("the stream's session is closed") { await server.sessionCount(appID: app.id) == 0 }
    }
  }

  @Test("A client's socket and a stream of the same query, as the same guest, each get their own shape")
  func socketAndStreamTogether() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Streams")
      let stream = Stream(port: try #require(await server.port), app: app)
      let (socket, _) = try await server.connect(appID: app.id)
      _ = try await socket.request(["op": "add-query", "q": ["todos": [:]]])
      let id = UUID().uuidString.lowercased()
      try await stream.open(["todos": [:]], headers: ["as-guest": "true"]) { session, _ in
        _ = await session.nextEvent()
        _ = await session.nextEvent()
        try await transact(server, app, [["update", "todos", .string(id), ["title": "Both"]]])
        let changed = try #require(await session.nextEvent())
        #expect(changed["computations"]?[0]?["instaql-result"] == ["todos": [["id": .string(id), "title": "Both"]]])
        let refresh = try await socket.next(op: "refresh-ok")
        #expect(triples(refresh["computations"]?[0]?["instaql-result"]).contains { $0[2] == "Both" })
      }
      await socket.close()
    }
  }

  @Test("Stopping the server ends open streams: each gets its last chunk")
  func stopEndsStreams() async throws {
    // A long grace, so that a loaded machine cannot turn an ending the server gives into a cut:
    // without the stream's shutdown hook, stop waits the whole grace and then cuts it.
    var configuration = InstantLocalConfiguration.testing()
    configuration.shutdownGrace = backstop
    try await withInstantLocal(configuration: configuration) { server in
      let app = try server.apps.create(title: "Streams")
      let stream = Stream(port: try #require(await server.port), app: app)
      try await stream.open(["todos": [:]]) { session, _ in
        _ = await session.nextEvent()
        _ = await session.nextEvent()
        await server.stop()
        // The stream was ended by the server as it began to stop (its last chunk sent), not cut
        // when the grace period ran out.
        let rest = await session.readToEnd()
        #expect(rest.hasSuffix("0\r\n\r\n"), "\(rest.suffix(40).debugDescription)")
        #expect(!session.closedByDeadline)
      }
    }
  }

  @Test("When a stopping server ends a stream, it already refuses connections: a reader reconnecting at once is not left hanging")
  func stopRefusesBeforeStreamsEnd() async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.shutdownGrace = backstop
    try await withInstantLocal(configuration: configuration) { server in
      let app = try server.apps.create(title: "Streams")
      let port = try #require(await server.port)
      let stream = Stream(port: port, app: app)
      // The server holds its shutdown until the test has tried to reconnect: the window in which
      // a reader whose stream ended reconnects, forced instead of left to the scheduler.
      let (tried, attempt) = AsyncStream<Void>.makeStream()
      await server.setBeforeShutdown { for await _ in tried { break } }
      try await stream.open(["todos": [:]]) { session, _ in
        _ = await session.nextEvent()
        _ = await session.nextEvent()
        async let stopped: Void = server.stop()
        // The stream's end is what makes a reader reconnect: by then nothing may accept it.
        _ = await session.readToEnd()
        var refused = false
        do { try await RawConnection.with(port: port, deadline: .seconds(5)) { _ in } } catch { refused = true }
        attempt.yield()
        #expect(refused, "a connection the stopping server accepted would be answered by no one")
        await stopped
      }
    }
  }

  @Test("Impersonated streams meet the rules; inference? makes has-one links one entity")
  func rulesAndInference() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Streams")
      try await server.setRules(["todos": ["allow": ["view": "data.public == true"]]])
      let stream = Stream(port: try #require(await server.port), app: app)
      let hidden = UUID().uuidString.lowercased()
      let shown = UUID().uuidString.lowercased()
      try await transact(server, app, [["update", "todos", .string(hidden), ["title": "secret", "public": false]]])
      try await stream.open(["todos": [:]], headers: ["as-guest": "true"]) { session, _ in
        _ = await session.nextEvent()
        let first = try #require(await session.nextEvent())
        #expect(first["result"] == ["todos": []])
        try await transact(server, app, [["update", "todos", .string(shown), ["title": "open", "public": true]]])
        let changed = try #require(await session.nextEvent())
        let titles = changed["computations"]?[0]?["instaql-result"]?["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(titles == ["open"])
      }
      // The admin (no as-* header) sees both.
      try await stream.open(["todos": [:]]) { session, _ in
        _ = await session.nextEvent()
        let first = try #require(await session.nextEvent())
        #expect(first["result"]?["todos"]?.arrayValue?.count == 2)
      }

      // A has-one link: an object with inference?, an array without.
      let post = UUID().uuidString.lowercased()
      let author = UUID().uuidString.lowercased()
      try await transact(server, app, [
        ["add-attr", [
          "id": .string(UUID().uuidString.lowercased()), "forward-identity": [.string(UUID().uuidString.lowercased()), "posts", "author"],
          "reverse-identity": [.string(UUID().uuidString.lowercased()), "authors", "posts"], "value-type": "ref",
          "cardinality": "one", "unique?": false, "index?": false,
        ]],
        ["update", "authors", .string(author), ["name": "Ann"]],
        ["update", "posts", .string(post), ["text": "Hi"]],
        ["link", "posts", .string(post), ["author": .string(author)]],
      ])
      let q: JSON = ["posts": ["author": [:]]]
      try await stream.open(q, inference: true) { session, _ in
        _ = await session.nextEvent()
        let result = try #require(await session.nextEvent())["result"]
        #expect(result?["posts"]?[0]?["author"]?["name"] == "Ann")
      }
      try await stream.open(q) { session, _ in
        _ = await session.nextEvent()
        let result = try #require(await session.nextEvent())["result"]
        #expect(result?["posts"]?[0]?["author"]?[0]?["name"] == "Ann")
      }
    }
  }

  @Test("A wrong token or a malformed query is refused before the stream; a query that cannot run is an error event")
  func refusals() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Streams")
      let stream = Stream(port: try #require(await server.port), app: app)
      try await stream.open(["todos": [:]], token: UUID().uuidString.lowercased()) { _, response in
        #expect(response.status == 400)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.body.contains("app-admin-token"))
      }
      try await stream.open("todos") { _, response in
        #expect(response.status == 400)
        #expect(response.body.contains("param-malformed"))
      }
      try await stream.open(["todos": ["$": ["where": "nope"]]]) { session, response in
        #expect(response.status == 200)
        _ = await session.nextEvent()
        let error = try #require(await session.nextEvent())
        #expect(error["op"] == "error")
        #expect(error["status"] == 400)
        #expect(error["type"] == "validation-failed")
      }
      #expect(await server.sessionCount(appID: app.id) <= 1)
    }
  }
}
