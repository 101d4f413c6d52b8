import Foundation
import InstantCore
import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// Two real clients against a real instant-local over loopback WebSockets.
@Suite("Client sync", .timeLimit(.minutes(10)))
struct ClientSyncTests {
  @Test("A writes, B sees it: create, update, delete")
  func createUpdateDelete() async throws {
    try await withServer { server in
      let a = server.client()
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let query: JSON = ["todos": [:]]
      let watchA = Watcher(a.subscribe(query))
      let watchB = Watcher(b.subscribe(query))
      try await watchB.next { !$0.isFromCache }

      let id = InstantID.make()
      try await a.transact(.update("todos", .id(id), ["title": "Run", "done": false])).synced()
      try await watchB.next { $0.column("todos", "title") == ["Run"] }

      try await b.transact(.update("todos", .id(id), ["done": true])).synced()
      try await watchA.next { $0.column("todos", "done") == [true] }

      try await a.transact(.delete("todos", .id(id))).synced()
      try await watchB.next { $0.rows("todos").isEmpty }
      try await watchA.next { $0.rows("todos").isEmpty && !$0.hasPendingWrites }
    }
  }

  @Test("Links, unlinks and lookups reach the other client")
  func linksAndLookups() async throws {
    try await withServer { server in
      let schema = ClientSchema(
        entities: [
          "goals": ["title": .init("string")],
          "todos": ["title": .init("string"), "slug": .init("string", unique: true, indexed: true)],
        ],
        links: [
          .init(
            forward: .init(on: "goals", has: .many, label: "todos"),
            reverse: .init(on: "todos", has: .one, label: "goal"))
        ])
      let a = server.client(schema: schema)
      let b = server.client(schema: schema)
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let watchB = Watcher(b.subscribe(["goals": ["todos": [:]]]))
      try await watchB.next { !$0.isFromCache }

      let goal = InstantID.make()
      try await a.transact([
        .update("goals", .id(goal), ["title": "Get fit"]),
        .update("todos", .lookup("slug", "run"), ["title": "Run"]),
        .update("todos", .lookup("slug", "swim"), ["title": "Swim"]),
      ]).synced()
      // Linked from the todos' side (the reverse label), each todo named by a lookup.
      try await a.transact([
        .link("todos", .lookup("slug", "run"), ["goal": .string(goal)]),
        .link("todos", .lookup("slug", "swim"), ["goal": .string(goal)]),
      ]).synced()
      let linked = try await watchB.next { $0.rows("goals").first?["todos"]?.arrayValue?.count == 2 }
      #expect(Set(linked.rows("goals")[0]["todos"]!.arrayValue!.map { $0["title"]! }) == ["Run", "Swim"])

      try await a.transact(.unlink("todos", .lookup("slug", "run"), ["goal": .string(goal)])).synced()
      let unlinked = try await watchB.next { $0.rows("goals").first?["todos"]?.arrayValue?.count == 1 }
      #expect(unlinked.rows("goals")[0]["todos"]![0]!["title"] == "Swim")
    }
  }

  @Test("where, order and limit stay right on both sides as data changes")
  func filteredOrderedLimited() async throws {
    try await withServer { server in
      let schema = ClientSchema(entities: [
        "todos": ["title": .init("string"), "priority": .init("number", indexed: true), "done": .init("boolean", indexed: true)]
      ])
      let a = server.client(schema: schema)
      let b = server.client(schema: schema)
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let query: JSON = ["todos": ["$": ["where": ["done": false], "order": ["priority": "desc"], "limit": 2]]]
      let watchA = Watcher(a.subscribe(query))
      let watchB = Watcher(b.subscribe(query))
      try await watchB.next { !$0.isFromCache }

      var ids: [String: String] = [:]
      for (title, priority) in [("low", 1), ("mid", 5), ("high", 9), ("top", 7)] {
        let id = InstantID.make()
        ids[title] = id
        try await a.transact(.update("todos", .id(id), ["title": .string(title), "priority": .number(Double(priority)), "done": false]))
      }
      try await watchA.next { $0.column("todos", "title") == ["high", "top"] }
      try await watchB.next { $0.column("todos", "title") == ["high", "top"] }

      try await b.transact(.update("todos", .id(ids["high"]!), ["done": true])).synced()
      try await watchA.next { $0.column("todos", "title") == ["top", "mid"] }
      try await watchB.next { $0.column("todos", "title") == ["top", "mid"] }
    }
  }

  @Test("A client's own write is visible to its subscribers before the server answers")
  func optimisticWhileOffline() async throws {
    try await withServer { server in
      let a = server.client()
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let watchA = Watcher(a.subscribe(["todos": [:]]))
      let watchB = Watcher(b.subscribe(["todos": [:]]))
      try await watchA.next { !$0.isFromCache }
      try await watchB.next { !$0.isFromCache }

      await a.setNetworkAvailable(false)
      try await eventually("A goes offline") { await a.status == .closed }
      let receipt = try await a.transact(.update("todos", .id(InstantID.make()), ["title": "Offline"]))
      let local = try await watchA.next { $0.column("todos", "title") == ["Offline"] }
      let localHasPending = local.hasPendingWrites
      #expect(localHasPending)
      let pendingNow = await a.pendingWrites
      let states = pendingNow.map { $0.state }
      #expect(states == [.enqueued])
      let seenByB = watchB.last?.rows("todos") ?? []
      #expect(seenByB.isEmpty)

      await a.setNetworkAvailable(true)
      _ = try await receipt.synced()
      try await watchB.next { $0.column("todos", "title") == ["Offline"] }
      try await watchA.next { !$0.hasPendingWrites }
    }
  }

  @Test("A write the server rejects rolls back on A with the server's message; B never sees it")
  func rejectedWrite() async throws {
    try await withServer(expectingErrors: [#"the server rejected a write: Record not unique: users.email = "a@example.com""#]) { server in
      let schema = ClientSchema(entities: ["users": ["email": .init("string", unique: true, indexed: true)]])
      let a = server.client(schema: schema)
      let b = server.client(schema: schema)
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let watchA = Watcher(a.subscribe(["users": [:]]))
      let watchB = Watcher(b.subscribe(["users": [:]]))
      let rejections = a.rejectedWrites()
      try await watchA.next { !$0.isFromCache }

      try await a.transact(.update("users", .id(InstantID.make()), ["email": "a@example.com"])).synced()
      try await watchB.next { $0.rows("users").count == 1 }

      await a.setNetworkAvailable(false)
      try await eventually("A goes offline") { await a.status == .closed }
      let duplicate = try await a.transact(.update("users", .id(InstantID.make()), ["email": "a@example.com"]))
      try await watchA.next { $0.rows("users").count == 2 }
      await a.setNetworkAvailable(true)

      let error = await #expect(throws: InstantClientError.self) { try await duplicate.synced() }
      #expect(error?.kind == .transactionRejected)
      #expect(error?.serverType == "record-not-unique")
      #expect(error?.message.contains("a@example.com") == true)
      var rejected = rejections.makeAsyncIterator()
      let reported = await rejected.next()
      #expect(reported?.id == duplicate.id)
      #expect(reported?.error == error)
      try await watchA.next { $0.rows("users").count == 1 && !$0.hasPendingWrites }
      let pending = await a.pendingWrites
      #expect(pending.isEmpty)
      let seenByB = watchB.last?.rows("users") ?? []
      #expect(seenByB.count == 1)
    }
  }

  @Test("Status goes connecting → opened → authenticated")
  func statusSequence() async throws {
    try await withServer { server in
      let a = server.client()
      defer { Task { await a.shutdown() } }
      var seen: [ConnectionStatus] = []
      for await status in a.statusUpdates() {
        if seen.last != status { seen.append(status) }
        if status == .authenticated { break }
      }
      #expect(seen.last == .authenticated)
      #expect(seen.contains(.opened))
    }
  }

  @Test("queryOnce answers from the server, and throws offline")
  func queryOnce() async throws {
    try await withServer { server in
      let a = server.client()
      defer { Task { await a.shutdown() } }
      try await eventually("A connects") { await a.status == .authenticated }
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "One"])).synced()
      let result = try await a.queryOnce(["todos": [:]])
      #expect(result.column("todos", "title") == ["One"])
      #expect(!result.isFromCache)

      await a.setNetworkAvailable(false)
      try await eventually("A goes offline") { await a.status == .closed }
      let error = await #expect(throws: InstantClientError.self) { try await a.queryOnce(["todos": [:]]) }
      #expect(error?.kind == .offline)
    }
  }

  @Test("A query the server rejects reports its error on that subscription alone")
  func rejectedQuery() async throws {
    try await withServer { server in
      let a = server.client()
      defer { Task { await a.shutdown() } }
      let good = Watcher(a.subscribe(["todos": [:]]))
      let bad = Watcher(a.subscribe(["todos": ["$": ["limit": -1]]]))
      let failed = try await bad.next { $0.error != nil }
      #expect(failed.error?.kind == .queryRejected)
      #expect(failed.error?.message.contains("limit") == true)
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "Still works"])).synced()
      try await good.next { $0.column("todos", "title") == ["Still works"] && $0.error == nil }
    }
  }
}
