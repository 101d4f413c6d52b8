import Testing
@testable import InstantCore
internal import OrderedCollections

/// InstaML expansion, case by case from docs/protocol.md, "InstaML expansion". The expected steps were checked
/// against the reference client's `instaml.transform` (ids normalised).
struct InstaMLTests {
  static let G = "11111111-1111-4111-8111-111111111111"
  static let T = "22222222-2222-4222-8222-222222222222"
  static let T2 = "33333333-3333-4333-8333-333333333333"
  static let U = "44444444-4444-4444-8444-444444444444"
  static let P = "55555555-5555-4555-8555-555555555555"

  static func attr(
    _ id: String, _ etype: String, _ label: String, ref: (String, String)? = nil, cardinality: Cardinality = .one, unique: Bool = false,
    extra: JSONObject = [:]
  ) -> Attr {
    Attr(
      id: id, forward: Ident(id: "f-" + id, etype: etype, label: label),
      reverse: ref.map { Ident(id: "r-" + id, etype: $0.0, label: $0.1) }, valueType: ref == nil ? "blob" : "ref",
      cardinality: cardinality, unique: unique, extra: extra)
  }

  static let attrs = AttrStore([
    attr("a-gid", "goals", "id", unique: true), attr("a-gtitle", "goals", "title"), attr("a-gmet", "goals", "metrics"),
    attr("a-tid", "todos", "id", unique: true), attr("a-link", "goals", "todos", ref: ("todos", "goals"), cardinality: .many),
    attr("a-uid", "users", "id", unique: true), attr("a-email", "users", "email", unique: true),
    attr("a-name", "users", "name"), attr("a-posts", "users", "posts", ref: ("posts", "author"), cardinality: .many),
    attr("a-pid", "posts", "id", unique: true), attr("a-slug", "posts", "slug", unique: true),
    attr("a-un", "goals", "unsyncedLabel", extra: ["isUnsynced": true]),
  ])

  /// Deterministic ids: id-1, id-2, … in creation order.
  static func instaml(attrs: AttrStore = attrs, stores: [TripleStore] = [], schema: ClientSchema? = nil) -> InstaML {
    final class Counter {
      var n = 0
    }
    let counter = Counter()
    return InstaML(attrs: attrs, stores: stores, schema: schema) {
      counter.n += 1
      return "id-\(counter.n)"
    }
  }

  static func steps(_ ops: [InstaMLOp], stores: [TripleStore] = [], schema: ClientSchema? = nil) throws -> JSON {
    .array(try instaml(stores: stores, schema: schema).transform(ops))
  }

  @Test func updateEmitsTheIdTripleFirst() throws {
    #expect(try Self.steps([.update("goals", .id(Self.G), ["title": "Get fit"])]) == [
      ["add-triple", .string(Self.G), "a-gid", .string(Self.G)],
      ["add-triple", .string(Self.G), "a-gtitle", "Get fit"],
    ])
  }

  @Test func updateOfAKnownEntityIsAStrictUpdate() throws {
    let store = TripleStore(attrs: Self.attrs, triples: [Triple(Self.G, "a-gid", .string(Self.G), 1)])
    let steps = try Self.steps([.update("goals", .id(Self.G), ["title": "x"])], stores: [store])
    #expect(steps == [
      ["add-triple", .string(Self.G), "a-gid", .string(Self.G), ["mode": "update"]],
      ["add-triple", .string(Self.G), "a-gtitle", "x", ["mode": "update"]],
    ])
    // upsert: true never adds a mode; upsert: false always does.
    let upserted = try Self.steps([.update("goals", .id(Self.G), ["title": "x"], upsert: true)], stores: [store])
    #expect(upserted.arrayValue?.allSatisfy { $0.arrayValue?.count == 4 } == true)
    let updated = try Self.steps([.update("goals", .id(Self.G), ["title": "x"], upsert: false)])
    #expect(updated.arrayValue?.allSatisfy { $0[4] == ["mode": "update"] } == true)
  }

  @Test func createMarksEveryStepAndDropsTheIdKey() throws {
    #expect(try Self.steps([.create("goals", .id(Self.G), ["title": "Get fit", "id": "ignored"])]) == [
      ["add-triple", .string(Self.G), "a-gid", .string(Self.G), ["mode": "create"]],
      ["add-triple", .string(Self.G), "a-gtitle", "Get fit", ["mode": "create"]],
    ])
  }

  @Test func mergeDeleteAndRuleParams() throws {
    #expect(try Self.steps([.merge("goals", .id(Self.G), ["metrics": ["progress": 0.5]])]) == [
      ["add-triple", .string(Self.G), "a-gid", .string(Self.G)],
      ["deep-merge-triple", .string(Self.G), "a-gmet", ["progress": 0.5]],
    ])
    #expect(try Self.steps([.delete("goals", .id(Self.G))]) == [["delete-entity", .string(Self.G), "goals"]])
    #expect(try Self.steps([.ruleParams("goals", .id(Self.G), ["token": "x"])]) == [["rule-params", .string(Self.G), "goals", ["token": "x"]]])
  }

  @Test func linksAreWrittenForwardSideFirst() throws {
    let forward = try Self.steps([.link("goals", .id(Self.G), ["todos": .string(Self.T)])])
    let reverse = try Self.steps([.link("todos", .id(Self.T), ["goals": .string(Self.G)])])
    #expect(forward == [["add-triple", .string(Self.G), "a-link", .string(Self.T)]])
    #expect(reverse == forward)
    #expect(try Self.steps([.link("goals", .id(Self.G), ["todos": [.string(Self.T), .string(Self.T2)]])]) == [
      ["add-triple", .string(Self.G), "a-link", .string(Self.T)], ["add-triple", .string(Self.G), "a-link", .string(Self.T2)],
    ])
    #expect(try Self.steps([.unlink("goals", .id(Self.G), ["todos": .string(Self.T)])]) == [
      ["retract-triple", .string(Self.G), "a-link", .string(Self.T)],
    ])
  }

  @Test func lookupsBecomeAttrValuePairs() throws {
    let lookup: JSON = ["a-email", "a@b.com"]
    #expect(try Self.steps([.update("users", .lookup("email", "a@b.com"), ["name": "A"])]) == [
      ["add-triple", lookup, "a-uid", lookup], ["add-triple", lookup, "a-name", "A"],
    ])
    // The string spelling `lookup("email", "a@b.com")` and a lookup value in a link.
    #expect(try Self.instaml().transform([InstaMLOp(.update, "users", "lookup__email__\"a@b.com\"", ["name": "A"])]) == [
      ["add-triple", lookup, "a-uid", lookup], ["add-triple", lookup, "a-name", "A"],
    ])
    #expect(try Self.steps([.link("users", .id(Self.U), ["posts": ["slug": "hello"]])]) == [
      ["add-triple", .string(Self.U), "a-posts", ["a-slug", "hello"]],
    ])
    let error = #expect(throws: InstaMLError.self) { try Self.steps([.update("users", .lookup("name", "A"), ["x": 1])]) }
    #expect(error?.message == "name is not a unique attribute.")
  }

  @Test func missingAttrsAreCreatedFirst() throws {
    let steps = try Self.steps([.update("goals", .id(Self.G), ["newField": 1]), .link("goals", .id(Self.G), ["newLink": .string(Self.T)])])
    #expect(steps == [
      ["add-attr", [
        "id": "id-1", "forward-identity": ["id-2", "goals", "newField"], "value-type": "blob", "cardinality": "one",
        "unique?": false, "index?": false, "isUnsynced": true,
      ]],
      ["add-attr", [
        "id": "id-3", "forward-identity": ["id-4", "goals", "newLink"], "reverse-identity": ["id-5", "newLink", "goals"],
        "value-type": "ref", "cardinality": "many", "unique?": false, "index?": false, "isUnsynced": true,
      ]],
      ["add-triple", .string(Self.G), "a-gid", .string(Self.G)],
      ["add-triple", .string(Self.G), "id-1", 1],
      ["add-triple", .string(Self.G), "id-3", .string(Self.T)],
    ])
  }

  @Test func unsyncedAttrsAreReEmitted() throws {
    let steps = try Self.steps([.update("goals", .id(Self.G), ["unsyncedLabel": 1])])
    #expect(steps.arrayValue?.first?[0] == "add-attr")
    #expect(steps.arrayValue?.first?[1]?["id"] == "a-un")
  }

  @Test func aSchemaShapesNewAttrs() throws {
    let schema = ClientSchema(
      entities: ["goals": ["due": .init("date", indexed: true)], "tags": ["name": .init("string", unique: true, indexed: true)]],
      links: [
        .init(
          forward: .init(on: "goals", has: .many, label: "tags"),
          reverse: .init(on: "tags", has: .one, label: "goal", onDelete: "cascade"))
      ])
    let ml = Self.instaml(attrs: AttrStore(), schema: schema)
    let steps = try ml.transform([.update("goals", .id(Self.G), ["due": "2020-01-01"]), .link("goals", .id(Self.G), ["tags": .string(Self.T)])])
    let added = steps.compactMap { $0[0] == "add-attr" ? $0[1] : nil }
    let due = try #require(added.first { $0["forward-identity"]?[2] == "due" })
    #expect(due["checked-data-type"] == "date")
    #expect(due["index?"] == true)
    let link = try #require(added.first { $0["forward-identity"]?[2] == "tags" })
    #expect(link["reverse-identity"]?[2] == "goal")
    #expect(link["unique?"] == true)
    #expect(link["on-delete-reverse"] == "cascade")
    let error = #expect(throws: InstaMLError.self) { try ml.transform([.update("goals", .id(Self.G), ["nope": 1])]) }
    #expect(error?.message == "goals.nope does not exist in your schema")
  }

  @Test func idsAreLowerCaseVersion4() {
    for _ in 0..<20 {
      let id = InstantID.make()
      #expect(id == id.lowercased())
      #expect(UUIDBits(id).isValid)
      let chars = Array(id)
      #expect(chars[14] == "4")
      #expect("89ab".contains(chars[19]))
    }
  }
}
