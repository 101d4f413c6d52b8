import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

@Suite("queries and transactions")
struct QueryAndTransactTests {
  let goalsID = newID()
  let goalsTitle = newID()

  func schemaSteps() -> [JSON] {
    [blobAttr(goalsID, "goals", "id", unique: true, indexed: true), blobAttr(goalsTitle, "goals", "title")]
  }

  func createGoal(_ id: String, _ title: String) -> [JSON] {
    createEntity(id, idAttr: goalsID, [goalsTitle: .string(title)])
  }

  /// `people` with unique `email` and `name`, and Ada created through a lookup on her email.
  func peopleWithAdaByLookup(id: String, email: String, name: String) -> [JSON] {
    let lookup: JSON = [.string(email), "ada@example.com"]
    return [
      blobAttr(id, "people", "id", unique: true, indexed: true),
      blobAttr(email, "people", "email", unique: true, indexed: true), blobAttr(name, "people", "name"),
      ["add-triple", lookup, .string(id), lookup], ["add-triple", lookup, .string(name), "Ada"],
    ]
  }

  /// `items` linked from `goals.todos` (reverse `items.goal`), goal `g` "Run" with undone todo `t`.
  func goalWithTodo(g: String, t: String, itemsID: String, itemsDone: String, link: String) -> [JSON] {
    let schema = [
      blobAttr(itemsID, "items", "id", unique: true), blobAttr(itemsDone, "items", "done"),
      refAttr(link, "goals", "todos", "items", "goal"),
    ]
    return schemaSteps() + schema + createGoal(g, "Run") + createEntity(t, idAttr: itemsID, [itemsDone: false])
      + [addTriple(g, link, .string(t))]
  }

  @Test func addQueryExistsAndRemove() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let q: JSON = ["goals": ["todos": [:]]]
      let ok = try await s.request(["op": "add-query", "q": q])
      #expect(ok["op"] == "add-query-ok")
      #expect(ok["q"] == q)
      #expect(ok["result-meta"] == .null)
      #expect(ok["processed-tx-id"]?.intValue != nil)
      #expect(ok["result"]?[0]?["data"]?["datalog-result"]?["join-rows"] == [[]])
      #expect(ok["result"]?[0]?["child-nodes"] == [])
      // Same query with a different key order is the same subscription.
      let reordered = try JSON.parse(#"{"goals":{"todos":{}}}"#)
      let exists = try await s.request(["op": "add-query", "q": reordered])
      #expect(exists["op"] == "add-query-exists")
      #expect(exists["result"] == nil)
      let removed = try await s.request(["op": "remove-query", "q": q])
      #expect(removed["op"] == "remove-query-ok")
      let again = try await s.request(["op": "add-query", "q": q])
      #expect(again["op"] == "add-query-ok")
      let removeUnknown = try await s.request(["op": "remove-query", "q": ["nothing": [:]]])
      #expect(removeUnknown["op"] == "remove-query-ok")
      await s.close()
    }
  }

  @Test func writerAndReaderBothGetRefreshOk() async throws {
    try await withInstantLocal { server in
      let (a, _) = try await server.connect()
      let (b, _) = try await server.connect()
      let (legacy, _) = try await server.connect(versions: nil)
      let (idle, _) = try await server.connect()
      let q: JSON = ["goals": [:]]
      for s in [a, b, legacy] { _ = try await s.request(["op": "add-query", "q": q]) }

      let g1 = newID()
      let eventID = newID()
      a.send(["op": "transact", "client-event-id": .string(eventID), "tx-steps": .array(schemaSteps() + createGoal(g1, "Run"))])
      let first = try await a.next()
      #expect(first["op"] == "transact-ok")
      #expect(first["client-event-id"] == .string(eventID))
      let txID = try #require(first["tx-id"]?.intValue)
      #expect(txID > 0)
      let refreshA = try await a.next(op: "refresh-ok")
      #expect(refreshA["processed-tx-id"]?.intValue == txID)
      #expect(refreshA["attrs"] != nil, "attrs changed, so they are included")
      let computation = try #require(refreshA["computations"]?[0])
      #expect(computation["instaql-query"] == q)
      let rows = triples(computation["instaql-result"])
      #expect(rows.contains { $0[0] == .string(g1) && $0[2] == "Run" })

      let refreshB = try await b.next(op: "refresh-ok")
      #expect(refreshB["processed-tx-id"]?.intValue == txID)
      #expect(triples(refreshB["computations"]?[0]?["instaql-result"]).count == rows.count)
      _ = try await legacy.next(op: "refresh-ok")
      // A session without queries still hears about the new attrs.
      let idleRefresh = try await idle.next(op: "refresh-ok")
      #expect(idleRefresh["computations"] == [])
      #expect(idleRefresh["attrs"]?.arrayValue?.contains { $0["id"] == .string(goalsTitle) } == true)

      // Second write: no attr change. Modern sessions get no attrs; the legacy one does.
      let ok2 = try await a.request(["op": "transact", "tx-steps": .array([["add-triple", .string(g1), .string(goalsTitle), "Walk"]])])
      let tx2 = try #require(ok2["tx-id"]?.intValue)
      #expect(tx2 > txID)
      let refreshA2 = try await a.next(op: "refresh-ok")
      #expect(refreshA2["processed-tx-id"]?.intValue == tx2)
      #expect(refreshA2["attrs"] == nil)
      let refreshLegacy = try await legacy.next(op: "refresh-ok")
      #expect(refreshLegacy["attrs"] != nil)
      #expect(await idle.collect(for: .milliseconds(200)).isEmpty, "nothing changed for the idle session")

      // A later query reflects everything so far.
      let (c, _) = try await server.connect()
      let late = try await c.request(["op": "add-query", "q": q])
      #expect(late["processed-tx-id"]?.intValue == tx2)
      #expect(triples(late["result"]).contains { $0[2] == "Walk" })
      for s in [a, b, legacy, idle, c] { await s.close() }
    }
  }

  @Test func unchangedResultsAreNotSent() async throws {
    try await withInstantLocal { server in
      let (a, _) = try await server.connect()
      let (b, _) = try await server.connect()
      let notes = newID()
      _ = try await a.request(["op": "transact", "tx-steps": .array(schemaSteps() + [blobAttr(notes, "notes", "id", unique: true)])])
      _ = try await b.request(["op": "add-query", "q": ["goals": [:]]])
      _ = await b.collect(for: .milliseconds(100))
      let n = newID()
      _ = try await a.request(["op": "transact", "tx-steps": [["add-triple", .string(n), .string(notes), .string(n)]]])
      #expect(await b.collect(for: .milliseconds(200)).isEmpty)
      await a.close()
      await b.close()
    }
  }

  @Test func failingTransactionChangesNothing() async throws {
    try await withInstantLocal { server in
      let (a, _) = try await server.connect()
      let g1 = newID()
      _ = try await a.request(["op": "transact", "tx-steps": .array(schemaSteps() + createGoal(g1, "Run"))])
      _ = try await a.request(["op": "add-query", "q": ["goals": [:]]])
      _ = await a.collect(for: .milliseconds(100))

      let g2 = newID()
      let bad = try await a.request([
        "op": "transact",
        "tx-steps": .array(createGoal(g2, "Swim") + [["add-triple", .string(g2), .string(newID()), "x"]]),
      ])
      #expect(bad["op"] == "error")
      #expect(bad["status"] == 400)
      #expect(bad["original-event"]?["op"] == "transact")
      #expect(bad["original-event"]?["tx-steps"] != nil)
      #expect(bad["type"]?.stringValue != nil)
      #expect(await a.collect(for: .milliseconds(200)).isEmpty, "no refresh-ok after a rejected transaction")

      let (b, _) = try await server.connect()
      let result = try await b.request(["op": "add-query", "q": ["goals": [:]]])
      let rows = triples(result["result"])
      #expect(!rows.contains { $0[0] == .string(g2) })
      #expect(rows.contains { $0[0] == .string(g1) })
      await a.close()
      await b.close()
    }
  }

  @Test func lookupsCreateEntitiesAndUsersAreOffLimits() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let peopleID = newID()
      let email = newID()
      let name = newID()
      let ok = try await s.request(transact(peopleWithAdaByLookup(id: peopleID, email: email, name: name)))
      #expect(ok["op"] == "transact-ok")
      let result = try await s.request(["op": "add-query", "q": ["people": ["$": ["where": ["email": "ada@example.com"]]]]])
      let rows = triples(result["result"])
      let entity = try #require(rows.first { $0[1] == .string(name) }?[0])
      #expect(rows.contains { $0[0] == entity && $0[1] == .string(email) && $0[2] == "ada@example.com" })

      let user = newID()
      let denied = try await s.request([
        "op": "transact", "tx-steps": [["add-triple", .string(user), .string(SystemCatalog.usersID), .string(user)]],
      ])
      #expect(denied["op"] == "error")
      #expect(denied["status"] == 400)
      await s.close()
    }
  }

  @Test func changesReachQueriesThroughLinksAndWhereClauses() async throws {
    try await withInstantLocal { server in
      let (a, _) = try await server.connect()
      let (b, _) = try await server.connect()
      let itemsID = newID()
      let itemsDone = newID()
      let link = newID()
      let g = newID()
      let t = newID()
      // `goals.todos` points at the `items` namespace: the child's etype is not named in the query.
      _ = try await a.request(transact(goalWithTodo(g: g, t: t, itemsID: itemsID, itemsDone: itemsDone, link: link)))
      let nested: JSON = ["goals": ["todos": [:]]]
      let filtered: JSON = ["goals": ["$": ["where": ["todos.done": true]]]]
      let reverse: JSON = ["items": ["goal": [:]]]
      for q in [nested, filtered, reverse] { _ = try await b.request(["op": "add-query", "q": q]) }
      _ = await b.collect(for: .milliseconds(100))

      _ = try await a.request(["op": "transact", "tx-steps": [["add-triple", .string(t), .string(itemsDone), true]]])
      let refresh = try await b.next(op: "refresh-ok")
      let changed = refresh["computations"]?.arrayValue?.compactMap { $0["instaql-query"] } ?? []
      #expect(changed.contains(nested))
      #expect(changed.contains(filtered))
      #expect(changed.contains(reverse))
      let filteredResult = refresh["computations"]?.arrayValue?.first { $0["instaql-query"] == filtered }
      #expect(triples(filteredResult?["instaql-result"]).contains { $0[0] == .string(g) })

      // A goal's title is seen by the reverse query's nested goal.
      _ = try await a.request(["op": "transact", "tx-steps": [["add-triple", .string(g), .string(goalsTitle), "Sprint"]]])
      let second = try await b.next(op: "refresh-ok")
      let changed2 = second["computations"]?.arrayValue?.compactMap { $0["instaql-query"] } ?? []
      #expect(changed2.contains(reverse))
      #expect(changed2.contains(nested))
      await a.close()
      await b.close()
    }
  }

  @Test func paginationAndMalformedOptions() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let g1 = newID()
      let g2 = newID()
      _ = try await s.request(["op": "transact", "tx-steps": .array(schemaSteps() + createGoal(g1, "One"))])
      _ = try await s.request(["op": "transact", "tx-steps": .array(createGoal(g2, "Two"))])
      let page = try await s.request(["op": "add-query", "q": ["goals": ["$": ["limit": 1, "order": ["serverCreatedAt": "asc"]]]]])
      #expect(page["op"] == "add-query-ok")
      let info = try #require(page["result"]?[0]?["data"]?["page-info"]?["goals"])
      #expect(info["has-next-page?"] == true)
      #expect(info["start-cursor"]?[0] == .string(g1))
      #expect(!triples(page["result"]).contains { $0[0] == .string(g2) })

      let bad: JSON = ["goals": ["$": ["limit": -1]]]
      let error = try await s.request(["op": "add-query", "q": bad])
      #expect(error["type"] == "validation-failed")
      #expect(error["hint"]?["data-type"] == "query")
      #expect(error["message"]?.stringValue?.hasPrefix("Validation failed for query: ") == true)
      #expect(error["original-event"]?["q"] == bad)
      let again = try await s.request(["op": "add-query", "q": bad])
      #expect(again["op"] == "error", "a failed query is not registered")
      await s.close()
    }
  }
}
