import Testing
@testable import InstantCore

@Suite("TripleStore") struct TripleStoreTests {
  static let i1 = TestData.id("i1")
  static let o2 = TestData.id("o2")

  @Test("building from rows indexes every triple consistently") func build() throws {
    let store = try TestData.store()
    store.expectConsistentIndexes()
    let rows = try #require(TestData.json(TestData.triplesJSON).arrayValue)
    #expect(store.count == rows.count)
    #expect(Set(store.triples) == Set(rows.compactMap(Triple.init(json:))))
  }

  @Test("rows with an unknown attr are dropped") func unknownAttrDropped() throws {
    let store = try TripleStore(
      attrs: TestData.attrs(), tripleRows: [[.string(Self.i1), "nope", "x", 1], [.string(Self.i1), "items-id", .string(Self.i1), 1]])
    #expect(store.count == 1)
    #expect(store.values(of: Self.i1, attr: "nope") == [])
  }

  @Test("a row that is not a triple is refused") func badRow() throws {
    #expect(throws: StoreError.self) { try TripleStore(attrs: TestData.attrs(), tripleRows: [["only-two", "items-id"]]) }
  }

  @Test("membership is the namespace's id triple") func membership() throws {
    let store = try TestData.store()
    #expect(store.hasEntity(Self.o2, etype: "owners"))
    #expect(store.hasEntity(Self.o2, etype: "profiles"))
    #expect(!store.hasEntity(Self.i1, etype: "owners"))
    #expect(!store.hasEntity(Self.i1, etype: "nope"))
  }

  @Test("values keeps stored nulls and objects") func values() throws {
    let store = try TestData.store()
    #expect(store.values(of: TestData.id("i2"), attr: "items-num") == [nil])
    #expect(store.values(of: TestData.id("i3"), attr: "items-meta") == [["x": 1, "nested": ["y": [1, 2]]]])
    #expect(store.values(of: TestData.id("i3"), attr: "items-when") == [])
  }

  @Test("cardinality-one add replaces every value; many adds") func cardinality() throws {
    var store = try TestData.store()
    try store.transact([["add-triple", .string(Self.i1), "items-code", "11"]])
    #expect(store.values(of: Self.i1, attr: "items-code") == ["11"])
    try store.transact([["add-triple", .string(TestData.id("o3")), "owners-items", .string(Self.i1)]])
    try store.transact([["add-triple", .string(TestData.id("o3")), "owners-items", .string(TestData.id("i2"))]])
    #expect(store.values(of: TestData.id("o3"), attr: "owners-items") == [.string(Self.i1), .string(TestData.id("i2"))])
    store.expectConsistentIndexes()
  }

  @Test("new triples get times after every existing one, strictly increasing in order") func newTimes() throws {
    var store = try TestData.store()
    let maxBefore = try #require(store.triples.compactMap(\.createdAt).max())
    let n1 = TestData.id("n1"), n2 = TestData.id("n2")
    try store.transact([
      ["add-triple", .string(n1), "items-id", .string(n1)], ["add-triple", .string(n2), "items-id", .string(n2)],
    ])
    let t1 = try #require(store.triples(of: n1).first?.createdAt)
    let t2 = try #require(store.triples(of: n2).first?.createdAt)
    #expect(t1 > maxBefore)
    #expect(t2 > t1)
    try store.transact([["add-triple", .string(n1), "items-code", "x"]])
    let t3 = try #require(store.triples(of: n1).first { $0.attr == "items-code" }?.createdAt)
    #expect(t3 > t2)
  }

  @Test("re-adding an existing triple keeps its time") func existingKeepsTime() throws {
    var store = try TestData.store()
    try store.transact([["add-triple", .string(Self.i1), "items-id", .string(Self.i1)], ["add-triple", .string(Self.i1), "items-code", "10"]])
    let times = store.triples(of: Self.i1).filter { ["items-id", "items-code"].contains($0.attr) }.map(\.createdAt)
    #expect(times == [1000, 1000])
  }

  @Test("an unknown action throws and leaves the store unchanged") func atomic() throws {
    var store = try TestData.store()
    let before = store.triples
    #expect(throws: StoreError.self) {
      try store.transact([["add-triple", .string(Self.i1), "items-code", "changed"], ["frobnicate"]])
    }
    #expect(store.triples == before)
    #expect(store.values(of: Self.i1, attr: "items-code") == ["10"])
  }

  @Test("a copy is not changed by transacting on the original") func valueSemantics() throws {
    var store = try TestData.store()
    let copy = store
    try store.transact([["delete-entity", .string(Self.i1), "items"]])
    #expect(copy.values(of: Self.i1, attr: "items-code") == ["10"])
    #expect(store.values(of: Self.i1, attr: "items-code") == [])
  }

  @Test("indexes stay consistent after each step of a long mixed batch") func consistencyEachStep() throws {
    var store = try TestData.store()
    let steps: [String] = [
      #"["add-triple","@n1","items-id","@n1"]"#, #"["add-triple","@n1","items-parent","@i3"]"#,
      #"["add-triple","@n1","items-parent","@i4"]"#, #"["add-triple","@o3","owners-items","@n1"]"#,
      #"["retract-triple","@o1","owners-items","@i2"]"#, #"["deep-merge-triple","@i3","items-meta",{"x":null}]"#,
      #"["delete-entity","@i1","items"]"#, #"["delete-entity","@o2","profiles"]"#,
      #"["add-triple",["owners-handle","cat"],"owners-handle","kat"]"#, #"["delete-attr","items-tag"]"#,
      #"["update-attr",{"id":"items-code","forward-identity":["f-items-code","items","kode"]}]"#,
      #"["add-triple","@i5","items-code","c"]"#, #"["delete-entity","@o3"]"#,
    ]
    for step in steps {
      try store.transact([TestData.json(step)])
      let problems = store.indexViolations()
      #expect(problems.isEmpty, "after \(step): \(problems)")
    }
    #expect(store.values(of: TestData.id("i5"), attr: "items-code") == ["c"])
    #expect(store.attrs.forward("items", "kode")?.id == "items-code")
    #expect(store.attrs.forward("items", "code") == nil)
    #expect(store.values(of: TestData.id("i3"), attr: "items-tag") == [])
  }
}

@Suite("deepMerge") struct DeepMergeTests {
  @Test("objects merge recursively") func nested() {
    #expect(JSONMerge.deepMerge(["a": ["b": 1, "c": 2], "d": 1], ["a": ["c": 3, "e": 4]]) == ["a": ["b": 1, "c": 3, "e": 4], "d": 1])
  }

  @Test("a null in the patch deletes the key, at any depth") func nullDeletes() {
    #expect(JSONMerge.deepMerge(["a": ["b": 1, "c": 2], "d": 1], ["a": ["b": nil], "d": nil]) == ["a": ["c": 2]])
  }

  @Test("arrays replace") func arraysReplace() {
    #expect(JSONMerge.deepMerge(["a": [1, 2, 3]], ["a": [4]]) == ["a": [4]])
    #expect(JSONMerge.deepMerge([1, 2], [3]) == [3])
  }

  @Test("a non-object on either side means the patch replaces") func scalars() {
    #expect(JSONMerge.deepMerge("x", ["a": 1]) == ["a": 1])
    #expect(JSONMerge.deepMerge(["a": 1], 5) == 5)
    #expect(JSONMerge.deepMerge(["a": 1], ["a": ["b": 2]]) == ["a": ["b": 2]])
  }
}
