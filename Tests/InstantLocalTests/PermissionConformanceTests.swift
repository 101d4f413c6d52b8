import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import InstantPermissions
import OrderedCollections
import Testing

/// One table of permission cases from the reference server's tests (`transaction_test.clj`, "TT";
/// `instaql_test.clj`, "IQ"), each run twice: by the engine (`PermissionRules` on a `TripleStore`)
/// and over the wire (a guest session of a running instant-local), which must both give the
/// expected answer. The engine's fuller table is `InstantPermissionsTests`.
@Suite("permission conformance, engine and wire")
struct PermissionConformanceTests {
  @Test(arguments: RuleCase.all)
  func engine(_ rule: RuleCase) throws {
    var run = EngineRun(rule)
    #expect(try run.outcome() == rule.expected)
  }

  @Test(arguments: RuleCase.all)
  func wire(_ rule: RuleCase) async throws {
    let outcome = try await withInstantLocal { server in
      var run = WireRun(rule, server)
      return try await run.outcome()
    }
    #expect(outcome == rule.expected)
  }
}

struct RuleCase: Sendable, CustomTestStringConvertible {
  enum Step: Sendable {
    case create(String, String, [(String, JSON)])
    case update(String, String, [(String, JSON)])
    case link(String, String, String, String)
    case delete(String, String)
    case ruleParams(String, String, JSON)
    case addAttr(String, String)
  }

  enum Expected: Sendable, Equatable {
    case allowed
    /// The error's type and its hint's `input` (or `rule`).
    case refused(ServerErrorType, JSON)
    /// The names of the entities a query shows, by namespace.
    case sees([String: [String]])
  }

  var name: String
  var source: String
  var rules: JSON
  var seed: [Step]
  var write: [Step] = []
  var query: JSON?
  var expected: Expected

  var testDescription: String { "\(name) (\(source))" }

  static let zeneca: [Step] = [
    .create("users", "stopa", [("handle", "stopa")]), .create("users", "alex", [("handle", "alex")]),
    .create("bookshelves", "alexShelf", [("title", "Alex's shelf")]), .link("users", "alex", "bookshelves", "alexShelf"),
    .create("bookshelves", "shelf2022", [("title", "2022")]), .link("users", "stopa", "bookshelves", "shelf2022"),
  ]
  static let denied = Expected.refused(.permissionDenied, ["users", "object"])
  static let shelfDenied = Expected.refused(.permissionDenied, ["bookshelves", "object"])

  static let all: [RuleCase] = [
    RuleCase(
      name: "no rules allow every write", source: "TT write-perms", rules: [:], seed: zeneca,
      write: [.update("users", "stopa", [("handle", "stopado")])], expected: .allowed),
    RuleCase(
      name: "update false blocks an update", source: "TT write-perms", rules: ["users": ["allow": ["update": "false"]]],
      seed: zeneca, write: [.update("users", "stopa", [("handle", "x")])], expected: denied),
    RuleCase(
      name: "newData is the entity after the write", source: "TT write-perms",
      rules: ["users": ["allow": ["update": "newData.handle == 'stopado'"]]], seed: zeneca,
      write: [.update("users", "stopa", [("handle", "stopado")])], expected: .allowed),
    RuleCase(
      name: "newData with the wrong value", source: "TT write-perms",
      rules: ["users": ["allow": ["update": "newData.handle == 'stopado'"]]], seed: zeneca,
      write: [.update("users", "stopa", [("handle", "stopa2")])], expected: denied),
    RuleCase(
      name: "a bind", source: "TT write-perms: bind works",
      rules: ["users": ["allow": ["update": "newData.handle == handle"], "bind": ["handle", "'strooper'"]]], seed: zeneca,
      write: [.update("users", "stopa", [("handle", "strooper")])], expected: .allowed),
    RuleCase(
      name: "data.ref follows links", source: "TT write-perms: ref allows",
      rules: ["bookshelves": ["allow": ["update": "'alex' in data.ref('users.handle')"]]], seed: zeneca,
      write: [.update("bookshelves", "alexShelf", [("title", "new")])], expected: .allowed),
    RuleCase(
      name: "data.ref denies another's shelf", source: "TT write-perms: invalid ref blocks",
      rules: ["bookshelves": ["allow": ["update": "'alex' in data.ref('users.handle')"]]], seed: zeneca,
      write: [.update("bookshelves", "shelf2022", [("title", "new")])], expected: shelfDenied),
    RuleCase(
      name: "create rules see links made in the same transaction", source: "TT write-perms: ref in create allows",
      rules: ["bookshelves": ["allow": ["create": "'alex' in data.ref('users.handle')"]]], seed: zeneca,
      write: [.create("bookshelves", "newShelf", [("title", "mine")]), .link("users", "alex", "bookshelves", "newShelf")],
      expected: .allowed),
    RuleCase(
      name: "deleting an entity that does not exist is checked", source: "TT delete non-existent-entity",
      rules: ["users": ["allow": ["delete": "false"]]], seed: zeneca, write: [.delete("users", "nobody")], expected: denied),
    RuleCase(
      name: "attrs.create false blocks a new attribute", source: "TT attr can block",
      rules: ["attrs": ["allow": ["create": "false"]]], seed: zeneca, write: [.addAttr("users", "favoriteColor")],
      expected: .refused(.permissionDenied, ["attrs", "attr"])),
    RuleCase(
      name: "ruleParams reach a create rule", source: "TT create-perms-rule-params",
      rules: ["users": ["allow": ["create": "newData.handle == ruleParams.handle"]]], seed: zeneca,
      write: [.ruleParams("users", "alyssa", ["handle": "alyssa"]), .create("users", "alyssa", [("handle", "alyssa")])],
      expected: .allowed),
    RuleCase(
      name: "a create rule without its ruleParams", source: "TT create-perms-rule-params",
      rules: ["users": ["allow": ["create": "newData.handle == ruleParams.handle"]]], seed: zeneca,
      write: [.create("users", "alyssa", [("handle", "alyssa")])], expected: denied),
    RuleCase(
      name: "a link without link rules needs view on its target", source: "TT link-perms fallback",
      rules: ["bookshelves": ["allow": ["view": "false"]]], seed: zeneca,
      write: [.link("users", "stopa", "bookshelves", "alexShelf")], expected: shelfDenied),
    RuleCase(
      name: "view rules filter a query", source: "IQ read-perms",
      rules: ["users": ["allow": ["view": "data.handle == 'stopa'"]]], seed: zeneca, query: ["users": [:]],
      expected: .sees(["users": ["stopa"]])),
    RuleCase(
      name: "ruleParams come with the query", source: "IQ read-rule-params",
      rules: ["users": ["allow": ["view": "data.handle == ruleParams.handle"]]], seed: zeneca,
      query: ["users": [:], "$$ruleParams": ["handle": "alex"]], expected: .sees(["users": ["alex"]])),
    RuleCase(
      name: "a namespace's view beats the top-level $default", source: "IQ default-perms",
      rules: ["$default": ["allow": ["$default": "false"]], "users": ["allow": ["view": "true"]]], seed: zeneca,
      query: ["users": [:], "bookshelves": [:]], expected: .sees(["users": ["alex", "stopa"], "bookshelves": []])),
    RuleCase(
      name: "a view rule that cannot be evaluated fails the query", source: "IQ read-perms: bad rules",
      rules: ["users": ["allow": ["view": "data.handle in data.nonexistent"]]], seed: zeneca, query: ["users": [:]],
      expected: .refused(.permissionEvaluationFailed, ["users", "view"])),
  ]
}

/// The schema every case uses, as attrs with fixed ids, and the steps of a case with named
/// entities turned into ids.
struct RuleCaseSteps {
  static let blobs: [(String, String)] = [
    ("users", "id"), ("users", "handle"), ("bookshelves", "id"), ("bookshelves", "title"),
  ]
  static let links: [(String, String, String, String)] = [("users", "bookshelves", "bookshelves", "users")]

  static func uuid(_ n: Int, _ prefix: String) -> String { String(format: "\(prefix)-0000-4000-8000-%012d", n) }

  static let attrs: [JSON] = {
    var out: [JSON] = []
    var n = 0
    for (etype, label) in blobs {
      n += 2
      out.append([
        "id": .string(uuid(n, "a0000000")), "forward-identity": [.string(uuid(n + 1, "a0000000")), .string(etype), .string(label)],
        "value-type": "blob", "cardinality": "one", "unique?": .bool(label == "id"), "index?": .bool(label == "id"),
      ])
    }
    for (etype, label, target, reverse) in links {
      n += 3
      out.append([
        "id": .string(uuid(n, "a0000000")), "forward-identity": [.string(uuid(n + 1, "a0000000")), .string(etype), .string(label)],
        "reverse-identity": [.string(uuid(n + 2, "a0000000")), .string(target), .string(reverse)], "value-type": "ref",
        "cardinality": "many", "unique?": false, "index?": false,
      ])
    }
    return out
  }()

  static func attr(_ etype: String, _ label: String) -> String {
    attrs.first { $0["forward-identity"]?[1] == .string(etype) && $0["forward-identity"]?[2] == .string(label) }!["id"]!.stringValue!
  }

  var names: [String: String] = [:]

  mutating func id(_ name: String) -> String {
    if let id = names[name] { return id }
    let id = Self.uuid(names.count + 1, "e0000000")
    names[name] = id
    return id
  }

  mutating func steps(_ steps: [RuleCase.Step]) -> [JSON] {
    steps.flatMap { step -> [JSON] in
      switch step {
      case let .create(etype, name, fields):
        let id = id(name)
        return [["add-triple", .string(id), .string(Self.attr(etype, "id")), .string(id)]]
          + fields.map { ["add-triple", .string(id), .string(Self.attr(etype, $0.0)), $0.1] }
      case let .update(etype, name, fields):
        let id = id(name)
        return fields.map { ["add-triple", .string(id), .string(Self.attr(etype, $0.0)), $0.1] }
      case let .link(etype, name, label, target):
        return [["add-triple", .string(id(name)), .string(Self.attr(etype, label)), .string(id(target))]]
      case let .delete(etype, name):
        return [["delete-entity", .string(id(name)), .string(etype)]]
      case let .ruleParams(etype, name, params):
        return [["rule-params", .string(id(name)), .string(etype), params]]
      case let .addAttr(etype, label):
        return [[
          "add-attr",
          [
            "id": "b0000000-0000-4000-8000-000000000001", "forward-identity": ["b0000000-0000-4000-8000-000000000002", .string(etype), .string(label)],
            "value-type": "blob", "cardinality": "one", "unique?": false, "index?": false,
          ],
        ]]
      }
    }
  }

  /// The names of the entities of each namespace the client shows for `q` over `triples`.
  func shown(_ q: JSON, triples: [JSON]) throws -> [String: [String]] {
    let store = try TripleStore(attrs: AttrStore(Self.attrs.map { try Attr(json: $0) }), tripleRows: triples)
    var clientQ = q.objectValue ?? [:]
    clientQ.removeValue(forKey: "$$ruleParams")
    let answer = try store.query(.object(clientQ))
    let byID = Dictionary(names.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
    var out: [String: [String]] = [:]
    for (namespace, rows) in answer.data.objectValue ?? [:] {
      out[namespace] = (rows.arrayValue ?? []).compactMap { $0["id"]?.stringValue.flatMap { byID[$0] } }.sorted()
    }
    return out
  }
}

/// A case run by the engine: the transaction applied to a store and checked, or the query's
/// triples filtered, as instant-local does.
struct EngineRun {
  let rule: RuleCase
  var steps = RuleCaseSteps()
  init(_ rule: RuleCase) { self.rule = rule }

  mutating func outcome() throws -> RuleCase.Expected {
    var store = TripleStore(attrs: AttrStore(try RuleCaseSteps.attrs.map { try Attr(json: $0) }))
    _ = try store.applyServerTransaction(.array(steps.steps(rule.seed)), now: 1, systemWrite: true)
    let rules = try PermissionRules(rule.rules)
    let context = RuleContext(user: nil, time: 2)
    if let q = rule.query {
      let result = try store.serverQuery(q)
      let visible: [Triple]
      do throws(ServerError) {
        visible = try rules.visibleTriples(result.triples, in: store, context: context, ruleParams: q["$$ruleParams"]?.objectValue ?? [:])
      } catch {
        return .refused(error.type ?? "", error.hint["input"] ?? error.hint["rule"] ?? .null)
      }
      return .sees(try steps.shown(q, triples: visible.map(\.json)))
    }
    let changes: ServerTransactionChanges
    do {
      changes = try store.applyServerTransaction(.array(steps.steps(rule.write)), now: 2)
    } catch {
      return .refused(error.serverError.type ?? "", error.serverError.hint["input"] ?? .null)
    }
    guard let refusal = rules.check(changes, in: store, context: context) else { return .allowed }
    return .refused(refusal.type ?? "", refusal.hint["input"] ?? refusal.hint["rule"] ?? .null)
  }
}

/// A case run over the wire: a guest session writes the schema and the seed, the server gets the
/// rules, then the session sends the case's transaction or query.
struct WireRun {
  let rule: RuleCase
  let server: InstantLocalServer
  var steps = RuleCaseSteps()
  init(_ rule: RuleCase, _ server: InstantLocalServer) {
    self.rule = rule
    self.server = server
  }

  mutating func outcome() async throws -> RuleCase.Expected {
    let (session, _) = try await server.connect()
    defer { Task { await session.close() } }
    let setup = RuleCaseSteps.attrs.map { JSON.array(["add-attr", $0]) } + steps.steps(rule.seed)
    let ok = try await session.request(transact(setup))
    guard ok["op"] == "transact-ok" else { throw Failure(description: "setup refused: \(ok)") }
    try await server.setRules(rule.rules)
    if let q = rule.query {
      let reply = try await session.request(["op": "add-query", "q": q])
      guard reply["op"] == "add-query-ok" else { return refusal(reply) }
      return .sees(try steps.shown(q, triples: triples(reply["result"])))
    }
    let reply = try await session.request(transact(steps.steps(rule.write)))
    return reply["op"] == "transact-ok" ? .allowed : refusal(reply)
  }

  func refusal(_ reply: JSON) -> RuleCase.Expected {
    .refused(ServerErrorType(rawValue: reply["type"]?.stringValue ?? ""), reply["hint"]?["input"] ?? reply["hint"]?["rule"] ?? .null)
  }

  struct Failure: Error, CustomStringConvertible { var description: String }
}
