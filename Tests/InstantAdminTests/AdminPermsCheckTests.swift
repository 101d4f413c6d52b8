import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// `query_perms_check` and `transact_perms_check` (`debugQuery`, `debugTransact`): the app's
/// rules, or rules sent with the request, checked for a user or guest, every check reported.
@Suite("Debugging permissions", .timeLimit(.minutes(10)))
struct AdminPermsCheckTests {
  static let ownerRules: JSON = [
    "todos": [
      "allow": ["view": "isOwner", "create": "true", "update": "isOwner"],
      "bind": ["isOwner", "auth.id == data.creatorId"],
    ]
  ]

  /// Alice, Bob, and a todo of each.
  static func seed(_ world: AdminWorld) async throws -> (alice: String, bob: String, alicesTodo: String, bobsTodo: String) {
    let alice = try await world.admin.createToken(email: "alice@example.com")
    let bob = try await world.admin.createToken(email: "bob@example.com")
    let (alicesTodo, bobsTodo) = (newID(), newID())
    try await world.admin.transact([
      .update("todos", .id(alicesTodo), ["title": "Alice's", "creatorId": .string(alice.id)]),
      .update("todos", .id(bobsTodo), ["title": "Bob's", "creatorId": .string(bob.id)]),
    ])
    return (alice.id, bob.id, alicesTodo, bobsTodo)
  }

  @Test("debugQuery reports the view check of every entity found, allowed and denied, with its rule")
  func queryChecks() async throws {
    try await AdminWorld.run { world in
      try await world.admin.pushRules(Self.ownerRules)
      let seeded = try await Self.seed(world)
      let checked = try await world.admin.asUser(email: "alice@example.com").debugQuery(["todos": [:]])
      #expect(checked.result["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Alice's"])
      let byID = Dictionary(checked.checks.map { ($0.id ?? "", $0) }, uniquingKeysWith: { first, _ in first })
      #expect(checked.checks.count == 2)
      let allowed = try #require(byID[seeded.alicesTodo])
      let denied = try #require(byID[seeded.bobsTodo])
      for check in [allowed, denied] {
        #expect(check.etype == "todos")
        #expect(check.action == "view")
        #expect(check.code == "isOwner")
        #expect(check.raw["program"]?["code"] == "cel.bind(isOwner, auth.id == data.creatorId, isOwner)")
      }
      #expect(allowed.passed && allowed.result == true)
      #expect(!denied.passed && denied.result == false)
      #expect(denied.data["title"] == "Bob's")
    }
  }

  @Test("debugQuery with inference?: has-one links as one entity or null; a link's target is not reported, only the entities found")
  func inferenceAndLinkTargets() async throws {
    try await AdminWorld.run { world in
      try await world.addHasOneLink("posts", "author", to: "profiles", reverse: "posts")
      let (linked, alone, profile) = (newID(), newID(), newID())
      try await world.admin.transact([
        .update("profiles", .id(profile), ["name": "Ann"]), .update("posts", .id(linked), ["title": "with"]),
        .update("posts", .id(alone), ["title": "without"]),
      ])
      try await world.admin.transact([.link("posts", .id(linked), ["author": .string(profile)])])
      try await world.admin.pushRules(["posts": ["allow": ["view": "true"]], "profiles": ["allow": ["view": "true"]]])

      let q: JSON = ["posts": ["author": [:]]]
      let checked = try await world.admin.asGuest().debugQuery(q, inference: true)
      let posts = Dictionary(
        (checked.result["posts"]?.arrayValue ?? []).compactMap { p in p["id"]?.stringValue.map { ($0, p) } }) { a, _ in a }
      #expect(posts[linked]?["author"]?["name"] == "Ann")
      #expect(posts[alone]?["author"] == .null)  // present, null: not left out
      #expect(Set(checked.checks.compactMap(\.id)) == [linked, alone, profile])
      // Asked for posts only, the profile a post links to is not an entity found.
      let postsOnly = try await world.admin.asGuest().debugQuery(["posts": [:]], inference: true)
      #expect(Set(postsOnly.checks.compactMap(\.id)) == [linked, alone])
      // The same trees from /admin/query.
      let plain = try await world.admin.query(q, inference: true)
      #expect(plain == checked.result)
    }
  }

  @Test("debugTransact reports each check, allowed and refused, and a refused one writes nothing even when committing")
  func transactChecks() async throws {
    try await AdminWorld.run { world in
      try await world.admin.pushRules(Self.ownerRules)
      let seeded = try await Self.seed(world)
      let fresh = newID()
      let checked = try await world.admin.asUser(email: "alice@example.com").debugTransact(
        [
          .update("todos", .id(seeded.bobsTodo), ["title": "Taken"]),
          .update("todos", .id(fresh), ["title": "New", "creatorId": .string(seeded.alice)]),
        ], dangerouslyCommit: true)
      #expect(!checked.allChecksPassed)
      #expect(!checked.committed)
      #expect(checked.txID == nil)
      let update = try #require(checked.checks.first { $0.id == seeded.bobsTodo })
      #expect(update.etype == "todos" && update.action == "update" && update.code == "isOwner")
      #expect(!update.passed && update.result == false)
      #expect(update.data["title"] == "Bob's")
      let create = try #require(checked.checks.first { $0.id == fresh })
      #expect(create.etype == "todos" && create.action == "create" && create.code == "true")
      #expect(create.passed && create.result == true)
      let titles = try await world.admin.query(["todos": [:]])["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
      #expect(Set(titles ?? []) == ["Alice's", "Bob's"])
    }
  }

  @Test("rules-override is checked instead of the app's rules, and nothing else changes")
  func rulesOverride() async throws {
    try await AdminWorld.run { world in
      try await world.admin.pushRules(["todos": ["allow": ["view": "true", "create": "true"]]])
      _ = try await Self.seed(world)
      let asBob = world.admin.asUser(email: "bob@example.com")
      let override: JSON = ["todos": ["allow": ["view": "data.title == \"Alice's\"", "create": "false"]]]
      let query = try await asBob.debugQuery(["todos": [:]], rules: override)
      #expect(query.result["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Alice's"])
      #expect(Set(query.checks.compactMap(\.code)) == ["data.title == \"Alice's\""])
      #expect(query.checks.filter(\.passed).count == 1)
      let transact = try await asBob.debugTransact([.update("todos", .id(newID()), ["title": "x"])], rules: override)
      #expect(!transact.allChecksPassed)
      #expect(transact.checks.map(\.code) == ["false"])
      // Without the override, the app's rules.
      let stored = try await asBob.debugQuery(["todos": [:]])
      #expect(stored.result["todos"]?.arrayValue?.count == 2)
      #expect(Set(stored.checks.compactMap(\.code)) == ["true"])
      #expect(try await world.admin.pullRules() == ["todos": ["allow": ["view": "true", "create": "true"]]])
    }
  }

  @Test("debugTransact is a dry run: nothing is written or sent to subscribers, unless dangerouslyCommit")
  func dryRun() async throws {
    try await AdminWorld.run { world in
      let db = try await world.client()
      let everSeen = Locked<Set<String>>([])
      let reader = Task {
        for await result in db.subscribe(["todos": [:]]) {
          let titles = result.data["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
          everSeen.withLock { $0.formUnion(titles) }
        }
      }
      try await eventually("the client has its first result") { await db.currentResult(["todos": [:]]) != nil }
      let guest = world.admin.asGuest()
      let dry = try await guest.debugTransact([.update("todos", .id(newID()), ["title": "Dry run"])])
      #expect(dry.allChecksPassed && !dry.committed && dry.txID == nil)
      #expect(dry.checks.contains { $0.action == "create" && $0.passed && $0.code == nil })
      #expect(try await world.admin.query(["todos": [:]]) == ["todos": []])
      let committed = try await guest.debugTransact(
        [.update("todos", .id(newID()), ["title": "Committed"])], dangerouslyCommit: true)
      #expect(committed.allChecksPassed && committed.committed && committed.txID != nil)
      let titles = try await world.admin.query(["todos": [:]])["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
      #expect(titles == ["Committed"])
      // The committed write reaches the client after anything the dry run could have sent.
      try await eventually("the client sees the committed todo") { everSeen.withLock { $0.contains("Committed") } }
      #expect(!everSeen.withLock { $0.contains("Dry run") })
      reader.cancel()
      await db.shutdown()
    }
  }

  /// The error `body` fails with; a success is an issue.
  static func refusal(_ body: () async throws -> Void) async throws -> InstantAdminError? {
    do {
      try await body()
    } catch let error as InstantAdminError {
      return error
    }
    Issue.record("the request was not refused")
    return nil
  }

  @Test("As the admin there is nothing to check: both routes refuse, as the reference does")
  func adminRefused() async throws {
    try await AdminWorld.run { world in
      let refusals = [
        try await Self.refusal { _ = try await world.admin.debugQuery(["todos": [:]]) },
        try await Self.refusal { _ = try await world.admin.debugTransact([.update("todos", .id(newID()), ["title": "x"])]) },
      ]
      for error in refusals {
        #expect(error?.server?.type == .validationFailed)
        #expect(error?.server?.message == "Validation failed for non-admin: Cannot test perms as admin")
        #expect(error?.server?.hint["data-type"] == "non-admin")
      }
      // The admin token is needed whoever is impersonated.
      let tokenless = InstantAdmin(appID: world.app.id, adminToken: nil, apiURI: world.baseURL).asGuest()
      #expect(try await Self.refusal { _ = try await tokenless.debugQuery(["todos": [:]]) }?.server?.type == .paramMissing)
      #expect(try await world.admin.query(["todos": [:]]) == ["todos": []])
    }
  }

  @Test("A rules-override that does not compile is refused as a push of it would be, and nothing runs")
  func badOverride() async throws {
    try await AdminWorld.run { world in
      let broken: JSON = ["todos": ["allow": ["view": "auth.id ==", "create": "nope("]]]
      let guest = world.admin.asGuest()
      let refusals = [
        try await Self.refusal { _ = try await guest.debugQuery(["todos": [:]], rules: broken) },
        try await Self.refusal {
          _ = try await guest.debugTransact([.update("todos", .id(newID()), ["title": "x"])], rules: broken, dangerouslyCommit: true)
        },
      ]
      for error in refusals {
        #expect(error?.server?.type == .validationFailed)
        #expect(error?.server?.hint["data-type"] == "rule")
        let places = Set(error?.server?.hint["errors"]?.arrayValue?.compactMap { $0["in"] } ?? [])
        #expect(places == [["todos", "allow", "view"], ["todos", "allow", "create"]])
      }
      #expect(try await world.admin.query(["todos": [:]]) == ["todos": []])
    }
  }

  @Test("The raw answers have the reference's keys")
  func rawShapes() async throws {
    try await AdminWorld.run { world in
      try await world.admin.transact([.update("todos", .id(newID()), ["title": "Seen"])])
      let headers = ["app-id": world.app.id, "authorization": "Bearer \(world.app.adminToken)", "as-guest": "true"]
      let query = try await world.http(
        "POST", "admin/query_perms_check", headers: headers,
        body: [
          "query": ["todos": [:]], "ip-override": "10.0.0.1", "origin-override": "https://example.com",
          "rules-override": ["todos": ["allow": ["view": "request.ip == '10.0.0.1' && request.origin == 'https://example.com'"]]],
        ])
      #expect(query.status == 200)
      #expect(Set(query.body.objectValue?.keys ?? []) == ["check-results", "result", "rule-wheres"])
      let viewed = try #require(query.body["check-results"]?[0]?.objectValue)
      #expect(Set(viewed.keys) == ["id", "entity", "label", "record", "program", "check"])
      #expect(viewed["check"] == true)
      #expect(Set(viewed["program"]?.objectValue?.keys ?? []) == ["etype", "action", "code", "display-code"])
      let transact = try await world.http(
        "POST", "admin/transact_perms_check", headers: headers,
        body: ["steps": [["update", "todos", .string(newID()), ["title": "x"]]]])
      #expect(transact.status == 200)
      #expect(Set(transact.body.objectValue?.keys ?? []) == ["tx-id", "all-checks-ok?", "committed?", "check-results"])
      let entry = try #require(transact.body["check-results"]?[0]?.objectValue)
      #expect(Set(entry.keys) == ["scope", "action", "etype", "eid", "program", "bindings", "check-result", "check-pass?"])
      let blank = try await world.http(
        "POST", "admin/query_perms_check", headers: headers, body: ["query": ["todos": [:]], "ip-override": "  "])
      #expect(blank.body["type"] == "param-malformed")
    }
  }
}
