import Foundation
import TestSupport
import Testing

@testable import InstantCore

/// ``ResultChanges``: what the server sends a session that negotiated `result-changes`, and the
/// store a client keeps current with it, which must answer every query as a store built from the
/// whole result would.
@Suite struct ResultChangesTests {
  static var attrs: AttrStore {
    var attrs = AttrStore()
    attrs.add(Attr(id: "todo-id", forward: Ident(id: "f1", etype: "todos", label: "id"), unique: true, indexed: true))
    attrs.add(Attr(id: "todo-title", forward: Ident(id: "f2", etype: "todos", label: "title"), indexed: true))
    attrs.add(Attr(id: "todo-meta", forward: Ident(id: "f3", etype: "todos", label: "meta")))
    attrs.add(Attr(id: "user-id", forward: Ident(id: "f4", etype: "users", label: "id"), unique: true, indexed: true))
    attrs.add(Attr(id: "user-name", forward: Ident(id: "f5", etype: "users", label: "name")))
    attrs.add(
      Attr(
        id: "todo-owner", forward: Ident(id: "f6", etype: "todos", label: "owner"),
        reverse: Ident(id: "f7", etype: "users", label: "todos"), valueType: "ref", cardinality: .one))
    return attrs
  }

  /// Queries whose answers must agree: plain, ordered, filtered, limited, nested both ways.
  static let queries: [JSON] = [
    ["todos": [:]],
    ["todos": ["$": ["order": ["title": "desc"]]]],
    ["todos": ["$": ["where": ["title": "b"]]]],
    ["todos": ["$": ["limit": 3]]],
    ["todos": ["owner": [:]]],
    ["users": ["todos": [:]]],
    ["users": ["$": ["where": ["todos.title": "a"]], "todos": [:]]],
  ]

  /// A random result: some todos (with titles, some with an object `meta` and an owner) and some
  /// users, drawn from small pools so successive results share, change and drop triples.
  static func randomResult(_ rng: inout SeededGenerator) -> Set<Triple> {
    let todos = (0..<8).map { "00000000-0000-4000-8000-00000000000\($0)" }
    let users = (0..<3).map { "00000000-0000-4000-9000-00000000000\($0)" }
    var out = Set<Triple>()
    // Each entity keeps one creation time, as on the server; its values change from result to result.
    func t(_ salt: Int) -> Double { Double(salt) }
    for (i, user) in users.enumerated() where Bool.random(using: &rng) || i == 0 {
      out.insert(Triple(user, "user-id", .string(user), t(i)))
      out.insert(Triple(user, "user-name", .string(["ann", "bob"].randomElement(using: &rng)!), t(i)))
    }
    for (i, todo) in todos.enumerated() where Int.random(in: 0..<4, using: &rng) > 0 {
      out.insert(Triple(todo, "todo-id", .string(todo), t(100 + i)))
      out.insert(Triple(todo, "todo-title", .string(["a", "b", "c", "d"].randomElement(using: &rng)!), t(100 + i)))
      if Bool.random(using: &rng) {
        out.insert(Triple(todo, "todo-meta", ["n": .number(Double(Int.random(in: 0..<3, using: &rng)))], t(100 + i)))
      }
      if Bool.random(using: &rng), let owner = users.randomElement(using: &rng) {
        out.insert(Triple(todo, "todo-owner", .string(owner), t(100 + i)))
      }
      // Now and then a triple whose attr this store does not know (made by a newer schema).
      if Int.random(in: 0..<10, using: &rng) == 0 { out.insert(Triple(todo, "unknown-attr", "x", t(100 + i))) }
    }
    return out
  }

  /// How `kept` (a store kept current by changes, plus the triples it could not index) differs
  /// from a store built from the whole `result`: every query's answer, the triples, the indexes.
  static func differences(_ kept: TripleStore, unindexed: [Triple], from result: Set<Triple>) -> [String] {
    var problems: [String] = []
    let fresh = TripleStore(attrs: attrs, triples: result.sorted { ($0.createdAt ?? 0, $0.entity, $0.attr) < ($1.createdAt ?? 0, $1.entity, $1.attr) })
    if Set(kept.triples).union(unindexed) != result { problems.append("the triples differ") }
    if kept.count + unindexed.count != result.count { problems.append("count \(kept.count + unindexed.count), not \(result.count)") }
    problems += kept.indexViolations()
    for q in queries {
      let a = try? kept.query(q).data
      let b = try? fresh.query(q).data
      if a != b { problems.append("\(q.serialized()) answers \(a?.serialized() ?? "nil"), not \(b?.serialized() ?? "nil")") }
    }
    return problems
  }

  @Test("A store kept current by result changes answers every query as one built from the whole result, over 300 results and 20 seeds")
  func keptStoreAgrees() {
    for seed in UInt64(1)...20 {
      var rng = SeededGenerator(seed: seed)
      var previous = Self.randomResult(&rng)
      var store = TripleStore(attrs: Self.attrs, triples: Array(previous))
      var unindexed = previous.filter { Self.attrs[$0.attr] == nil }.map { $0 }
      for step in 0..<15 {
        let next = Self.randomResult(&rng)
        guard let changes = ResultChanges.between(previous, next, oldPageInfo: nil, newPageInfo: nil) else {
          #expect(previous == next)
          continue
        }
        #expect(ResultChanges(json: changes.json) == changes, "seed \(seed), step \(step): the wire form reads back")
        let (dropped, absent) = store.apply(changes)
        for triple in absent {
          if let i = unindexed.firstIndex(of: triple) { unindexed.remove(at: i) } else { Issue.record("seed \(seed): \(triple) absent") }
        }
        unindexed += dropped
        #expect(changes.count == next.count)
        let problems = Self.differences(store, unindexed: unindexed, from: next)
        #expect(problems.isEmpty, "seed \(seed), step \(step): \(problems)")
        if !problems.isEmpty { return }
        previous = next
      }
    }
  }

  @Test("The check above catches a store that misses changes: one that only adds (never removes) fails it")
  func checkCatchesAStoreThatOnlyAdds() {
    var rng = SeededGenerator(seed: 7)
    var previous = Self.randomResult(&rng)
    var store = TripleStore(attrs: Self.attrs, triples: Array(previous))
    var caught = false
    for _ in 0..<15 {
      let next = Self.randomResult(&rng)
      guard var changes = ResultChanges.between(previous, next, oldPageInfo: nil, newPageInfo: nil) else { continue }
      changes.removed = []
      _ = store.apply(changes)
      let unindexed = next.filter { Self.attrs[$0.attr] == nil }.map { $0 }
      if !Self.differences(store, unindexed: unindexed, from: next).isEmpty { caught = true }
      previous = next
    }
    #expect(caught)
  }

  @Test("No changes and the same page info is nothing to send; a page info change alone is sent")
  func nothingToSend() {
    let triples: Set<Triple> = [Triple("e", "todo-id", "e", 1)]
    #expect(ResultChanges.between(triples, triples, oldPageInfo: nil, newPageInfo: nil) == nil)
    let paged = ResultChanges.between(triples, triples, oldPageInfo: nil, newPageInfo: ["todos": ["has-next-page?": true]])
    #expect(paged?.added == [] && paged?.removed == [] && paged?.count == 1)
    #expect(paged?.pageInfo == ["todos": ["has-next-page?": true]])
  }

  @Test("A malformed changes member reads as nothing, never a partial change")
  func malformed() {
    #expect(ResultChanges(json: ["removed": [], "added": [["e", "a"]], "count": 1]) == nil)
    #expect(ResultChanges(json: ["removed": [], "added": []]) == nil)
    #expect(ResultChanges(json: ["removed": [], "added": [], "count": -1]) == nil)
    #expect(ResultChanges(json: "changes") == nil)
    let frame: JSON = [
      "op": "refresh-ok", "computations": [["instaql-query": ["todos": [:]], "instaql-result-changes": ["added": 3]]],
    ]
    #expect(throws: ServerMessageError.self) { try ServerMessage(frame: frame) }
  }

  @Test("A refresh-ok with changes round-trips through its frame")
  func frame() throws {
    let changes = ResultChanges(
      removed: [Triple("e", "todo-title", "a", 1)], added: [Triple("e", "todo-title", "b", 2)], pageInfo: nil, count: 2)
    let message = ServerMessage.refreshOK(
      processedTxID: 4, computations: [.init(q: .json(["todos": [:]]), content: .changes(changes))], attrs: nil)
    let read = try ServerMessage(frame: try JSON.parse(message.serialized()))
    guard case let .refreshOK(txID, computations, _) = read else {
      Issue.record("not a refresh-ok: \(read)")
      return
    }
    #expect(txID == 4)
    #expect(computations.first?.content == .changes(changes))
    #expect(computations.first?.result == nil)
  }
}
