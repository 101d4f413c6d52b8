import Testing
@testable import InstantCore

/// The server's transaction semantics (docs/protocol.md, "How instant-local applies a transaction"), on attrs and data we wrote.
struct ServerTransactionTests {
  static let goal = "6f1c0a52-0000-4000-8000-000000000001"
  static let todo = "9d0e0000-0000-4000-8000-000000000002"
  static let user = "c1a70000-0000-4000-8000-000000000003"

  static let gid = "a0000000-0000-4000-8000-000000000001"
  static let gtitle = "a0000000-0000-4000-8000-000000000002"
  static let gdone = "a0000000-0000-4000-8000-000000000003"
  static let tid = "a0000000-0000-4000-8000-000000000004"
  static let link = "a0000000-0000-4000-8000-000000000005"
  static let uid = "a0000000-0000-4000-8000-000000000006"
  static let email = "a0000000-0000-4000-8000-000000000007"
  static let owner = "a0000000-0000-4000-8000-000000000008"
  static let rank = "a0000000-0000-4000-8000-000000000009"

  static func schemaStore() throws -> TripleStore {
    var store = TripleStore(attrs: AttrStore())
    let steps: [JSON] = [
      addAttr(gid, "goals", "id", unique: true, indexed: true),
      addAttr(gtitle, "goals", "title", type: "string"),
      addAttr(gdone, "goals", "done", indexed: true),
      addAttr(rank, "goals", "rank", type: "number"),
      addAttr(tid, "todos", "id", unique: true, indexed: true),
      .array([
        "add-attr",
        .object(
          Attr(
            id: link, forward: Ident(id: "f-link", etype: "goals", label: "todos"),
            reverse: Ident(id: "r-link", etype: "todos", label: "goal"), valueType: "ref", cardinality: .many,
            unique: true, onDelete: nil, onDeleteReverse: "cascade"
          ).json),
      ]),
      addAttr(uid, "users", "id", unique: true, indexed: true),
      addAttr(email, "users", "email", unique: true, indexed: true, type: "string"),
      .array([
        "add-attr",
        .object(
          Attr(
            id: owner, forward: Ident(id: "f-owner", etype: "goals", label: "owner"),
            reverse: Ident(id: "r-owner", etype: "users", label: "goals"), valueType: "ref", cardinality: .one,
            onDelete: "cascade"
          ).json),
      ]),
    ]
    let changes = try store.applyServerTransaction(.array(steps), now: 1000)
    #expect(changes.upsertedAttrs.count == 9)
    return store
  }

  static func addAttr(_ id: String, _ etype: String, _ label: String, unique: Bool = false, indexed: Bool = false, type: String? = nil) -> JSON {
    let forward = Ident(id: "f" + id, etype: etype, label: label)
    return .array(["add-attr", .object(Attr(id: id, forward: forward, unique: unique, indexed: indexed, checkedDataType: type).json)])
  }

  @Test func writesCreateTriplesWithTheServerTime() throws {
    var store = try Self.schemaStore()
    let changes = try store.applyServerTransaction(
      [["add-triple", .string(Self.goal), .string(Self.gid), .string(Self.goal)],
       ["add-triple", .string(Self.goal), .string(Self.gtitle), "Run"]], now: 5000)
    #expect(changes.added.contains(Triple(Self.goal, Self.gtitle, "Run", 5000)))
    // The indexed `done` attr gets an explicit null for the new entity.
    #expect(changes.added.contains(Triple(Self.goal, Self.gdone, .null, 5000)))
    #expect(store.values(of: Self.goal, attr: Self.gtitle) == ["Run"])
  }

  @Test func cardinalityOneUpdatesKeepTheOriginalTime() throws {
    var store = try Self.schemaStore()
    _ = try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.gtitle), "Run"]], now: 5000)
    let changes = try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.gtitle), "Walk"]], now: 9000)
    #expect(changes.removed == [Triple(Self.goal, Self.gtitle, "Run", 5000)])
    #expect(changes.added == [Triple(Self.goal, Self.gtitle, "Walk", 5000)])
    let unchanged = try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.gtitle), "Walk"]], now: 9500)
    #expect(unchanged.isEmpty)
  }

  @Test func stepsRunGroupedByOpInOrderOfFirstAppearance() throws {
    var store = try Self.schemaStore()
    // retract appears after the first add-triple, so every add-triple runs before it.
    _ = try store.applyServerTransaction(
      [["add-triple", .string(Self.goal), .string(Self.link), .string(Self.todo)],
       ["retract-triple", .string(Self.goal), .string(Self.link), .string(Self.todo)],
       ["add-triple", .string(Self.goal), .string(Self.gtitle), "x"]], now: 1)
    #expect(store.values(of: Self.goal, attr: Self.link).isEmpty)
    #expect(store.values(of: Self.goal, attr: Self.gtitle) == ["x"])
  }

  @Test func uuidsAreLowerCased() throws {
    var store = try Self.schemaStore()
    _ = try store.applyServerTransaction([["add-triple", .string(Self.goal.uppercased()), .string(Self.gtitle), "Run"]], now: 1)
    #expect(store.values(of: Self.goal, attr: Self.gtitle) == ["Run"])
  }

  @Test func lookupsFindOrCreateTheEntity() throws {
    var store = try Self.schemaStore()
    let lookup: JSON = [.string(Self.email), "a@b.com"]
    _ = try store.applyServerTransaction([["add-triple", lookup, .string(Self.uid), lookup]], now: 1)
    let created = try #require(store.triples.first { $0.attr == Self.email }?.entity)
    _ = try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.owner), lookup]], now: 2)
    #expect(store.values(of: Self.goal, attr: Self.owner) == [.string(created)])
    #expect(throws: TransactionError.self) {
      try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.owner), [.string(Self.email), "nobody@b.com"]]], now: 3)
    }
  }

  @Test("A session cannot rename or delete a system namespace's attr; the server's own writes can")
  func systemAttrsAreProtected() throws {
    var store = try TestData.store()
    let emails = store.triples.filter { $0.attr == "users-email" }.count
    #expect(emails > 0)
    let delete: JSON = ["delete-attr", "users-email"]
    let refused = #expect(throws: TransactionError.self) { try store.applyServerTransaction([delete], now: 1) }
    #expect(refused?.message == "Permission denied: cannot delete-attr on $users attrs.")
    #expect(store.triples.filter { $0.attr == "users-email" }.count == emails, "no email was deleted")
    let rename: JSON = ["update-attr", ["id": "users-email", "forward-identity": ["f-users-email", "$users", "mail"]]]
    #expect(throws: TransactionError.self) { try store.applyServerTransaction([rename], now: 2) }
    #expect(store.attrs["users-email"]?.forwardIdentity.label == "email")
    // An app's own attr stays the app's to change.
    _ = try store.applyServerTransaction([["delete-attr", "items-tag"]], now: 3)
    #expect(store.attrs["items-tag"] == nil)
    _ = try store.applyServerTransaction([delete], now: 4, systemWrite: true)
    #expect(store.attrs["users-email"] == nil)
  }

  /// As on the reference, a `$files` entity may be deleted by a transaction, with or without a
  /// namespace; its `delete` rule decides (it is a `delete` fact like any other).
  @Test("A delete-entity may delete a $files entity, leaving the decision to its delete rule")
  func filesEntityWithoutNamespace() throws {
    var store = TripleStore(attrs: AttrStore([
      Attr(id: "files-id", forward: Ident(id: "f-files-id", etype: "$files", label: "id"), unique: true, indexed: true),
      Attr(id: "files-path", forward: Ident(id: "f-files-path", etype: "$files", label: "path"), unique: true, indexed: true),
    ]))
    let file = "f1000000-0000-4000-8000-000000000001"
    for (time, step) in [(1.0, ["delete-entity", .string(file)] as JSON), (3, ["delete-entity", .string(file), "$files"])] {
      _ = try store.applyServerTransaction(
        [["add-triple", .string(file), "files-id", .string(file)], ["add-triple", .string(file), "files-path", "a.png"]],
        now: time, systemWrite: true)
      let changes = try store.applyServerTransaction([step], now: time + 1)
      #expect(changes.facts.deletes.map(\.etype) == ["$files"])
      #expect(store.values(of: file, attr: "files-path").isEmpty)
    }
  }

  @Test func modesAreChecked() throws {
    var store = try Self.schemaStore()
    let update: JSON = ["add-triple", .string(Self.goal), .string(Self.gtitle), "x", ["mode": "update"]]
    let error = #expect(throws: TransactionError.self) { try store.applyServerTransaction([update], now: 1) }
    #expect(error?.message.hasPrefix("Updating entities that don't exist") == true)
    let create: JSON = ["add-triple", .string(Self.goal), .string(Self.gid), .string(Self.goal), ["mode": "create"]]
    _ = try store.applyServerTransaction([create], now: 1)
    let again = #expect(throws: TransactionError.self) { try store.applyServerTransaction([create], now: 2) }
    #expect(again?.message.hasPrefix("Creating entities that exist") == true)
    _ = try store.applyServerTransaction([update], now: 3)
  }

  /// `create` puts the mode on every attribute it writes (the id triple first): the entity made by
  /// the first step is still new for the others, so one create of several attributes succeeds.
  @Test func createWithSeveralAttributesInOneTransaction() throws {
    var store = try Self.schemaStore()
    let create: JSON = [
      ["add-triple", .string(Self.goal), .string(Self.gid), .string(Self.goal), ["mode": "create"]],
      ["add-triple", .string(Self.goal), .string(Self.gtitle), "Run", ["mode": "create"]],
      ["add-triple", .string(Self.goal), .string(Self.rank), 1, ["mode": "create"]],
    ]
    _ = try store.applyServerTransaction(create, now: 1)
    #expect(store.values(of: Self.goal, attr: Self.gtitle) == ["Run"])
    #expect(store.values(of: Self.goal, attr: Self.rank) == [1])
    let again = #expect(throws: TransactionError.self) { try store.applyServerTransaction(create, now: 2) }
    #expect(again?.message.hasPrefix("Creating entities that exist") == true)
  }

  @Test func failuresChangeNothing() throws {
    var store = try Self.schemaStore()
    _ = try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.gtitle), "Run"]], now: 1)
    let before = store.triples
    // The second step is invalid (a number in a string attr): the first must not stick.
    #expect(throws: TransactionError.self) {
      try store.applyServerTransaction(
        [["add-triple", .string(Self.goal), .string(Self.gtitle), "Walk"],
         ["add-triple", .string(Self.goal), .string(Self.gtitle), 42]], now: 2)
    }
    #expect(Set(store.triples) == Set(before))
    for bad: JSON in [
      [["frobnicate"]], [["add-triple", "not-a-uuid", .string(Self.gtitle), "x"]],
      [["add-triple", .string(Self.goal), "a0000000-0000-4000-8000-0000000000ff", "x"]], "not an array", [[1, 2]],
    ] {
      #expect(throws: TransactionError.self) { try store.applyServerTransaction(bad, now: 3) }
      #expect(Set(store.triples) == Set(before))
    }
  }

  @Test func uniqueValuesCannotRepeat() throws {
    var store = try Self.schemaStore()
    _ = try store.applyServerTransaction([["add-triple", .string(Self.user), .string(Self.email), "a@b.com"]], now: 1)
    let other = "c1a70000-0000-4000-8000-000000000009"
    let error = #expect(throws: TransactionError.self) {
      try store.applyServerTransaction([["add-triple", .string(other), .string(Self.email), "a@b.com"]], now: 2)
    }
    #expect(error?.kind == .recordNotUnique)
  }

  @Test func deletesCascadeBothWays() throws {
    var store = try Self.schemaStore()
    _ = try store.applyServerTransaction(
      [["add-triple", .string(Self.goal), .string(Self.gid), .string(Self.goal)],
       ["add-triple", .string(Self.todo), .string(Self.tid), .string(Self.todo)],
       ["add-triple", .string(Self.goal), .string(Self.link), .string(Self.todo)],
       ["add-triple", .string(Self.user), .string(Self.uid), .string(Self.user)],
       ["add-triple", .string(Self.goal), .string(Self.owner), .string(Self.user)]], now: 1)
    // Deleting the owner deletes the goal (on-delete cascade), whose todo goes too (on-delete-reverse).
    let changes = try store.applyServerTransaction([["delete-entity", .string(Self.user), "users"]], now: 2)
    #expect(store.triples.isEmpty)
    // Five triples, plus the nulls written for the goal's indexed `done` and the user's `email`.
    #expect(changes.removed.count == 7)
  }

  @Test func addAttrIsIdempotentAndRefusesConflicts() throws {
    var store = try Self.schemaStore()
    let same = try store.applyServerTransaction([Self.addAttr(Self.gtitle, "goals", "title", type: "string")], now: 1)
    #expect(same.isEmpty)
    let clash = #expect(throws: TransactionError.self) {
      try store.applyServerTransaction([Self.addAttr("a0000000-0000-4000-8000-0000000000aa", "goals", "title")], now: 2)
    }
    #expect(clash?.serverError.type?.rawValue == "record-not-unique")
    #expect(throws: TransactionError.self) {
      try store.applyServerTransaction([Self.addAttr("a0000000-0000-4000-8000-0000000000ab", "$secret", "x")], now: 2)
    }
  }

  @Test func systemNamespacesNeedASystemWrite() throws {
    var store = try Self.schemaStore()
    let usersId = "96653230-13ff-ffff-a4b4-81ffffffffff"
    _ = try store.applyServerTransaction(
      [Self.addAttr(usersId, "$users", "id", unique: true, indexed: true)], now: 1, systemWrite: true)
    #expect(throws: TransactionError.self) {
      try store.applyServerTransaction([["add-triple", .string(Self.user), .string(usersId), .string(Self.user)]], now: 2)
    }
    _ = try store.applyServerTransaction(
      [["add-triple", .string(Self.user), .string(usersId), .string(Self.user)]], now: 2, systemWrite: true)
    #expect(store.hasEntity(Self.user, etype: "$users"))
  }

  @Test func deepMergeMergesObjects() throws {
    var store = try Self.schemaStore()
    let meta = "a0000000-0000-4000-8000-0000000000b0"
    _ = try store.applyServerTransaction([Self.addAttr(meta, "goals", "meta")], now: 1)
    _ = try store.applyServerTransaction([["deep-merge-triple", .string(Self.goal), .string(meta), ["a": 1, "b": ["c": 2]]]], now: 2)
    _ = try store.applyServerTransaction([["deep-merge-triple", .string(Self.goal), .string(meta), ["a": .null, "b": ["d": 3]]]], now: 3)
    #expect(store.values(of: Self.goal, attr: meta) == [["b": ["c": 2, "d": 3]]])
  }
}


extension ServerTransactionTests {
  @Test func aFailedTransactionRestoresAttrsAndTriples() throws {
    var store = try Self.schemaStore()
    _ = try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.gtitle), "Run"]], now: 1)
    let triples = store.triples
    let attrs = store.attrs.json
    // delete-attr and add-attr run before the failing add-triple (grouped by op): all undone.
    #expect(throws: TransactionError.self) {
      try store.applyServerTransaction(
        [["delete-attr", .string(Self.gtitle)], Self.addAttr("a0000000-0000-4000-8000-0000000000c0", "goals", "x"),
         ["add-triple", .string(Self.goal), .string(Self.rank), "not a number"]], now: 2)
    }
    #expect(Set(store.triples) == Set(triples))
    #expect(store.attrs.json == attrs)
    #expect(store.values(of: Self.goal, attr: Self.gtitle) == ["Run"])
  }

  @Test func revertUndoesACommittedTransaction() throws {
    var store = try Self.schemaStore()
    _ = try store.applyServerTransaction([["add-triple", .string(Self.goal), .string(Self.gtitle), "Run"]], now: 1)
    let triples = store.triples
    let attrs = store.attrs.json
    let changes = try store.applyServerTransaction(
      [["add-triple", .string(Self.goal), .string(Self.gtitle), "Walk"], ["add-triple", .string(Self.todo), .string(Self.tid), .string(Self.todo)],
       Self.addAttr("a0000000-0000-4000-8000-0000000000c1", "goals", "y")], now: 2)
    #expect(!changes.isEmpty)
    store.revert(changes)
    #expect(Set(store.triples) == Set(triples))
    #expect(store.attrs.json == attrs)
  }
}
