import InstantChaos
import InstantCore
import TestSupport
import Testing
internal import OrderedCollections

/// The model and the comparison the chaos run relies on.
@Suite("Chaos model", .timeLimit(.minutes(10)))
struct ChaosStateTests {
  @Test("A result reads into entities and forward links")
  func readsResult() {
    let data: JSON = [
      "lists": [["id": "l1", "title": "a", "rank": 1, "items": [["id": "i1", "text": "x"]]]],
      "items": [["id": "i1", "text": "x", "tags": [["id": "t1", "name": "#a"]]]],
      "tags": [["id": "t1", "name": "#a"]],
    ]
    let state = ChaosState(result: data)
    #expect(state.entities["lists/l1"] == ["title": "a", "rank": 1])
    #expect(state.entities["items/i1"] == ["text": "x"])
    #expect(state.links == ["lists/l1/items/i1", "items/i1/tags/t1"])
  }

  @Test("Differences are classified: missing is lost, extra is duplicated, changed is diverged")
  func classifies() {
    var expected = ChaosState()
    expected.entities = ["lists/a": ["title": "x", "rank": 1], "tags/b": ["name": "n"]]
    expected.links = ["items/i/tags/b"]
    var actual = ChaosState()
    actual.entities = ["lists/a": ["title": "y"], "tags/c": ["name": "n"]]
    actual.links = ["lists/a/items/i"]
    let kinds = ChaosDifference.between(expected: expected, actual: actual).map(\.kind)
    #expect(kinds.filter { $0 == .lost }.count == 3)  // lists/a.rank, tags/b, the tag link
    #expect(kinds.filter { $0 == .duplicated }.count == 2)  // tags/c, the list link
    #expect(kinds.filter { $0 == .diverged }.count == 1)  // lists/a.title
  }

  @Test("The same seed makes the same writes")
  func seeded() {
    func writes(_ seed: UInt64) -> [[InstaMLOp]] {
      var rng = SplitMix(seed: seed)
      var model = ChaosClientModel()
      return (0..<50).map { _ in
        let (ops, after) = model.nextWrite(using: &rng)
        model = after
        return ops
      }
    }
    #expect(writes(7) == writes(7))
    #expect(writes(7) != writes(8))
  }

  @Test("SplitMix draws what the tests' SeededGenerator draws from the same seed")
  func sameGeneratorAsTests() {
    for seed: UInt64 in [0, 7, 0xC0FFEE, .max] {
      var chaos = SplitMix(seed: seed)
      var tests = SeededGenerator(seed: seed)
      #expect((0..<100).map { _ in chaos.next() } == (0..<100).map { _ in tests.next() }, "seed \(seed)")
    }
  }
}

/// Lookups and the boards every client shares.
@Suite("Chaos model: shared entities", .timeLimit(.minutes(10)))
struct ChaosSharedStateTests {
  /// `n` writes of client `index` from `seed`, and the model after each.
  static func writes(client index: Int, seed: UInt64, count n: Int) -> [(ops: [InstaMLOp], model: ChaosClientModel)] {
    var rng = SplitMix(seed: seed)
    var model = ChaosClientModel(client: index)
    return (0..<n).map { _ in
      let (ops, after) = model.nextWrite(using: &rng)
      model = after
      return (ops, after)
    }
  }

  /// `"board-3"` for an op naming a board by lookup, in the entity or a link's value.
  static func boardKey(_ op: InstaMLOp) -> String? {
    if op.etype == "boards", let pair = op.entity.arrayValue, pair.first == "key" { return pair[1].stringValue }
    return op.args?["board"]?["key"]?.stringValue
  }

  @Test("A seeded sequence writes boards only by lookup: updates, links from both sides, unlinks")
  func seededSharedWrites() {
    let ops = Self.writes(client: 2, seed: 5, count: 600).flatMap(\.ops)
    let shared = ops.filter(\.writesShared)
    #expect(shared.count > 60)
    #expect(shared.allSatisfy { $0.usesLookup && Self.boardKey($0) != nil })
    #expect(ops.filter(\.usesLookup).count == shared.count)  // lookups are only used on boards
    #expect(shared.contains { $0.action == .update && $0.etype == "boards" })
    #expect(shared.contains { $0.action == .link && $0.etype == "boards" })
    #expect(shared.contains { $0.action == .link && $0.etype == "items" })  // value lookup
    #expect(shared.contains { $0.action == .unlink && $0.etype == "boards" })
    #expect(!ops.contains { $0.action == .delete && $0.etype == "boards" })
    // Every key is from the pool, and the client writes no other client's attribute.
    #expect(Set(shared.compactMap(Self.boardKey)).isSubset(of: ChaosSchema.sharedKeys))
    for op in shared where op.action == .update {
      let written = Set((op.args?.objectValue ?? [:]).keys)
      #expect(written.isSubset(of: ["title", "c2"]), "\(op)")
    }
  }

  @Test("A lookup in a link's value names a board this client wrote in an earlier write")
  func valueLookupsFollowAWrite() {
    var written: Set<String> = []
    for (ops, _) in Self.writes(client: 0, seed: 9, count: 1500) {
      for op in ops where op.etype == "items" && op.action == .link {
        if let key = Self.boardKey(op) { #expect(written.contains(key), "\(op)") }
      }
      for op in ops { if let key = Self.boardKey(op) { written.insert(key) } }
    }
  }

  @Test("The model after each write: boards by key, links only from live items, the last titles")
  func modelTracksOps() {
    var titles: [String: JSON] = [:]
    for (ops, model) in Self.writes(client: 1, seed: 3, count: 800) {
      for op in ops where op.etype == "boards" && op.action == .update {
        if let title = op.args?["title"] { titles[Self.boardKey(op)!] = title }
      }
      let state = model.state
      for (name, attributes) in state.entities where name.hasPrefix("boards/") {
        #expect(attributes["key"] == .string(String(name.dropFirst("boards/".count))))
        #expect(attributes["title"] == nil)  // a choice, not a fact
      }
      for link in state.links where link.hasPrefix("boards/") {
        let parts = link.split(separator: "/")
        #expect(state.entities["boards/\(parts[1])"] != nil, "\(link)")
        #expect(state.entities["items/\(parts[3])"] != nil, "\(link): link of a deleted item")
      }
      #expect(state.choices == Dictionary(uniqueKeysWithValues: titles.map { ("boards/\($0.key).title", [$0.value]) }))
    }
    #expect(titles.count >= 3)
  }

  @Test("Last writer wins: any client's last title is accepted; a stale or missing one is not")
  func lastWriterWins() throws {
    let a = Self.writes(client: 0, seed: 21, count: 400)
    let b = Self.writes(client: 1, seed: 22, count: 400)
    var expected = a.last!.model.state
    expected.merge(b.last!.model.state)
    // A board both clients titled, and every title written there.
    func titles(_ run: [(ops: [InstaMLOp], model: ChaosClientModel)], _ key: String) -> [JSON] {
      run.flatMap(\.ops).filter { $0.etype == "boards" && Self.boardKey($0) == key }.compactMap { $0.args?["title"] }
    }
    let key = try #require(ChaosSchema.sharedKeys.first { titles(a, $0).count > 1 && !titles(b, $0).isEmpty })
    let fact = "boards/\(key).title"
    #expect(expected.choices[fact] == [titles(a, key).last!, titles(b, key).last!])

    var actual = expected
    actual.choices = [:]
    for (fact, values) in expected.choices {
      let name = String(fact.dropLast(".title".count))
      actual.entities[name]!["title"] = values.first!
    }
    #expect(ChaosDifference.between(expected: expected, actual: actual).isEmpty)
    for title in [titles(a, key).last!, titles(b, key).last!] {
      actual.entities["boards/\(key)"]!["title"] = title
      #expect(ChaosDifference.between(expected: expected, actual: actual).isEmpty)
    }
    let stale = titles(a, key).dropLast().last!
    actual.entities["boards/\(key)"]!["title"] = stale
    #expect(
      ChaosDifference.between(expected: expected, actual: actual).map(\.kind) == [.diverged])
    actual.entities["boards/\(key)"]!["title"] = nil
    let differences = ChaosDifference.between(expected: expected, actual: actual)
    #expect(differences.map(\.kind) == [.lost])
    #expect(differences.first?.fact.hasPrefix(fact) == true)
  }

  @Test("Both clients' attributes on one board merge; their links stay each client's")
  func mergesShared() {
    var one = ChaosState()
    one.entities = ["boards/board-1": ["key": "board-1", "c0": 4]]
    one.links = ["boards/board-1/items/i0"]
    var two = ChaosState()
    two.entities = ["boards/board-1": ["key": "board-1", "c1": 9]]
    two.links = ["boards/board-1/items/i1"]
    one.merge(two)
    #expect(one.entities == ["boards/board-1": ["key": "board-1", "c0": 4, "c1": 9]])
    #expect(one.links == ["boards/board-1/items/i0", "boards/board-1/items/i1"])
  }

  @Test("A board reads by key; a second entity for one key is a duplicate, with its links")
  func duplicateKey() {
    let board: (String, String) -> JSON = { id, item in
      ["id": .string(id), "key": "board-2", "c0": 1, "items": [["id": .string(item)]]]
    }
    var expected = ChaosState()
    expected.entities = ["boards/board-2": ["key": "board-2", "c0": 1]]
    expected.links = ["boards/board-2/items/i1"]

    let single = ChaosState(result: ["boards": [board("b-1", "i1")]])
    #expect(single.entities == expected.entities)
    #expect(single.links == expected.links)
    #expect(single.ids == ["boards/board-2": "b-1"])
    #expect(ChaosDifference.between(expected: expected, actual: single).isEmpty)

    let twice = ChaosState(result: ["boards": [board("b-2", "i2"), board("b-1", "i1")]])
    let differences = ChaosDifference.between(expected: expected, actual: twice)
    #expect(differences.map(\.kind) == [.duplicated, .duplicated])
    #expect(differences.map(\.fact) == ["boards/board-2#b-2 exists", "boards/board-2#b-2/items/i2"])
    // Replicas that picked other ids for one key differ.
    var other = single
    other.ids["boards/board-2"] = "b-9"
    #expect(other != single)
    #expect(ChaosDifference.between(expected: single, actual: other).map(\.kind) == [.diverged])
  }
}
