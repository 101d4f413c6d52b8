import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

/// Hostile frames from one raw socket (deep nesting, huge `in` lists, bad cursors, unknown ops and
/// operators, junk steps): each gets an answer, the hostile session stays usable, another session
/// keeps its live query, and nothing stored changes.
@Suite("hostile input", .timeLimit(.minutes(10)))
struct HostileInputTests {
  let goalsID = newID()
  let goalsTitle = newID()

  static func nested(_ depth: Int) -> JSON {
    var q: JSON = [:]
    for _ in 0..<depth { q = ["goals": q] }
    return q
  }

  static let hostile: [(String, JSON)] = [
    ("deep query", ["op": "add-query", "q": nested(400)]),
    ("huge in list", ["op": "add-query", "q": ["goals": ["$": ["where": ["title": ["$in": .array((0..<50_000).map { .string("t\($0)") })]]]]]]),
    ("cursor string", ["op": "add-query", "q": ["goals": ["$": ["after": "garbage", "first": 1]]]]),
    ("cursor array", ["op": "add-query", "q": ["goals": ["$": ["after": [1, 2, 3, 4, 5], "first": 1]]]]),
    ("cursor object", ["op": "add-query", "q": ["goals": ["$": ["before": ["x": 1], "last": 1]]]]),
    ("huge limit", ["op": "add-query", "q": ["goals": ["$": ["limit": 1e300]]]]),
    ("odd operator", ["op": "add-query", "q": ["goals": ["$": ["where": ["title": ["$regexp": "(a+)+$"]]]]]]),
    ("where on nothing", ["op": "add-query", "q": ["goals": ["$": ["where": ["no.such.path": 1]]]]]),
    ("order by nothing", ["op": "add-query", "q": ["goals": ["$": ["order": ["nothing": "sideways"]]]]]),
    ("deep or", ["op": "add-query", "q": ["goals": ["$": ["where": deepOr(200)]]]]),
    ("unknown op", ["op": "drop-database"]),
    ("junk steps", ["op": "transact", "tx-steps": [["add-triple"], ["delete-entity", 5], ["retract-triple", [], [], []], "x"]]),
    ("steps on unknown attrs", ["op": "transact", "tx-steps": [["add-triple", "e", "no-such-attr", 1]]]),
    ("refresh of nothing", ["op": "refresh", "q": ["goals": [:]]]),
  ]

  static func deepOr(_ depth: Int) -> JSON {
    var w: JSON = ["title": "x"]
    for _ in 0..<depth { w = ["or": [w, ["title": "y"]]] }
    return w
  }

  @Test func hostileFramesLeaveOthersAndTheDataAlone() async throws {
    try await withInstantLocal { server in
      let (watcher, _) = try await server.connect()
      let g1 = newID()
      _ = try await watcher.request(transact(
        [blobAttr(goalsID, "goals", "id", unique: true, indexed: true), blobAttr(goalsTitle, "goals", "title")]
          + createEntity(g1, idAttr: goalsID, [goalsTitle: "One"])))
      let live = try await watcher.request(["op": "add-query", "q": ["goals": [:]]])
      #expect(live["op"] == "add-query-ok")
      let before = triples(live["result"]).filter { $0[0] == .string(g1) }.count

      let (hostile, _) = try await server.connect()
      for (name, frame) in Self.hostile {
        let reply = try await hostile.request(frame)
        let op = reply["op"]?.stringValue ?? "?"
        #expect(["error", "add-query-ok", "refresh-ok"].contains(op), "\(name): \(op)")
        if name.contains("cursor") || name.contains("unknown") || name.contains("junk") {
          #expect(op == "error", "\(name) is refused: \(reply.serialized().prefix(300))")
        }
      }
      let probe = try await hostile.request(["op": "add-query", "q": ["goals": ["$": ["where": ["id": .string(g1)]]]]])
      #expect(probe["op"] == "add-query-ok", "the hostile session is still usable")

      // The other session's live query carries on, and the stored data is as it was.
      let g2 = newID()
      let (writer, _) = try await server.connect()
      _ = try await writer.request(transact(createEntity(g2, idAttr: goalsID, [goalsTitle: "Two"])))
      let refresh = try await watcher.next(op: "refresh-ok")
      let seen = triples(refresh["computations"]?[0]?["instaql-result"]).compactMap { $0[0]?.stringValue }
      #expect(Set(seen) == [g1, g2])
      let (reader, _) = try await server.connect()
      let again = try await reader.request(["op": "add-query", "q": ["goals": [:]]])
      #expect(triples(again["result"]).filter { $0[0] == .string(g1) }.count == before)
      for s in [watcher, hostile, writer, reader] { await s.close() }
    }
  }

  /// `goals.todos.goals.todos…`, `depth` forms deep.
  static func cycle(_ depth: Int) -> JSON {
    var q: JSON = [:]
    for level in stride(from: depth, through: 1, by: -1) { q = [level % 2 == 1 ? "todos" : "goals": q] }
    return ["goals": q]
  }

  /// Five goals each linked to the same five todos: a query that walks the link back and forth
  /// names every entity again at every level, 5^depth paths. The server's answer is a set of
  /// triples, so each entity is expanded once per level, not once per path.
  @Test func aQueryThroughALinkCycleIsAnsweredInTime() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let (goalsID, todosID, link) = (newID(), newID(), newID())
      let goals = (0..<5).map { _ in newID() }
      let todos = (0..<5).map { _ in newID() }
      var steps = [blobAttr(goalsID, "goals", "id", unique: true, indexed: true), blobAttr(todosID, "todos", "id", unique: true, indexed: true),
        refAttr(link, "goals", "todos", "todos", "goals")]
      for g in goals { steps += createEntity(g, idAttr: goalsID) }
      for t in todos { steps += createEntity(t, idAttr: todosID) }
      for g in goals { for t in todos { steps.append(addTriple(g, link, .string(t))) } }
      #expect(try await s.request(transact(steps))["op"] == "transact-ok")

      let reply = try await s.request(["op": "add-query", "q": Self.cycle(40)])
      #expect(reply["op"] == "add-query-ok")
      let entities = Set(triples(reply["result"]).compactMap { $0[0]?.stringValue })
      #expect(entities == Set(goals + todos), "every goal and todo, once")
      await s.close()
    }
  }

  /// Hostile frames from five sessions at once, each its own list in its own order, while a
  /// sixth session writes and a watcher's live query follows: every hostile frame is answered,
  /// every write lands, and the data is what the writes made.
  @Test func hostileFramesFromSeveralSessionsAtOnce() async throws {
    try await withInstantLocal { server in
      let (watcher, _) = try await server.connect()
      _ = try await watcher.request(transact(
        [blobAttr(goalsID, "goals", "id", unique: true, indexed: true), blobAttr(goalsTitle, "goals", "title")]))
      #expect(try await watcher.request(["op": "add-query", "q": ["goals": [:]]])["op"] == "add-query-ok")
      let frames = Self.hostile + [("link cycle", ["op": "add-query", "q": Self.cycle(30)] as JSON)]

      let answered = try await withThrowingTaskGroup(of: Int.self) { group in
        for offset in 0..<5 {
          group.addTask {
            let (hostile, _) = try await server.connect()
            var count = 0
            for i in 0..<frames.count {
              let (name, frame) = frames[(i + offset * 3) % frames.count]
              let reply = try await hostile.request(frame)
              let op = reply["op"]?.stringValue ?? "?"
              #expect(["error", "add-query-ok", "refresh-ok"].contains(op), "session \(offset), \(name): \(op)")
              count += 1
            }
            await hostile.close()
            return count
          }
        }
        let (writer, _) = try await server.connect()
        var written: [String] = []
        for n in 0..<20 {
          let id = newID()
          let ok = try await writer.request(transact(createEntity(id, idAttr: goalsID, [goalsTitle: .string("g\(n)")])))
          #expect(ok["op"] == "transact-ok")
          written.append(id)
        }
        await writer.close()
        var total = 0
        for try await count in group { total += count }
        return (total, written)
      }
      #expect(answered.0 == 5 * frames.count)

      // The watcher's live query ends with exactly the twenty goals written.
      var seen: Set<String> = []
      while seen.count < 20 {
        let refresh = try await watcher.next(op: "refresh-ok")
        seen = Set(triples(refresh["computations"]?[0]?["instaql-result"]).compactMap { $0[0]?.stringValue })
      }
      #expect(seen == Set(answered.1))
      await watcher.close()
    }
  }
}
