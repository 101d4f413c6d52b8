import InstantCore
import OrderedCollections
import Testing

@testable import InstantPermissions

/// What queries show under rules, from the reference server's tests (`instaql_test.clj`, "IQ"
/// with the test's name). Each case checks what a client shows after evaluating the query over
/// the triples the server would send.
@Suite("Rules on queries")
struct QueryRuleTests {
  static func zeneca() -> PermWorld {
    var w = TransactionRuleTests.zeneca()
    w.seed(w.create("users", "joe", ["handle": "joe", "email": "joe@instantdb.com"]))
    w.seed(w.create("users", "nicole", ["handle": "nicolegf", "email": "nicole@instantdb.com"]))
    return w
  }

  static let allUsers = ["alex", "joe", "nicole", "stopa"]

  @Test("view rules filter entities; nothing fails (IQ read-perms)")
  func readPerms() {
    var w = Self.zeneca()
    let q: JSON = ["users": [:]]
    #expect(w.query([:], q) == .success(["users": Self.allUsers]))
    #expect(w.query(["users": ["allow": ["view": "false"]]], q) == .success(["users": []]))
    #expect(w.query(["users": ["allow": ["view": "data.handle == 'stopa'"]]], q) == .success(["users": ["stopa"]]))
    #expect(w.query(["users": ["allow": ["view": "data.handle != handle"], "bind": ["handle", "'stopa'"]]], q) == .success(["users": ["alex", "joe", "nicole"]]))
  }

  @Test("guests: auth.id is null, a missing auth field is null and hides (IQ read-perms)")
  func guests() {
    var w = Self.zeneca()
    #expect(w.query(["users": ["allow": ["view": "auth.id != null"]]], ["users": [:]]) == .success(["users": []]))
    #expect(w.query(["users": ["allow": ["view": "auth.isAdmin"]]], ["users": [:]], as: "alexUser") == .success(["users": []]))
    #expect(w.query(["users": ["allow": ["view": "auth.id != null"]]], ["users": [:]], as: "alexUser") == .success(["users": Self.allUsers]))
  }

  @Test("data.ref in a view rule (IQ read-perms: ref)")
  func viewRef() {
    var w = Self.zeneca()
    let rules: JSON = ["bookshelves": ["allow": ["view": "'alex' in data.ref('users.handle')"]]]
    #expect(w.query(rules, ["bookshelves": [:]]) == .success(["bookshelves": ["alexShelf"]]))
  }

  @Test("ruleParams come with the query (IQ read-rule-params)")
  func ruleParams() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["view": "data.handle == ruleParams.handle"]]]
    #expect(w.query(rules, ["users": [:], "$$ruleParams": ["handle": "stopa"]]) == .success(["users": ["stopa"]]))
    #expect(w.query(rules, ["users": [:]]) == .success(["users": []]))
  }

  @Test("a rule that cannot be evaluated fails the whole query (IQ read-perms: bad rules)")
  func evaluationError() {
    var w = Self.zeneca()
    let outcome = w.query(["users": ["allow": ["view": "auth.handle in data.nonexistent"]]], ["users": [:]], as: "alexUser")
    guard case let .failure(error) = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(error.type == .permissionEvaluationFailed)
    #expect(error.hint["rule"] == ["users", "view"])
    #expect(error.message.contains("You may have a typo"))
  }

  @Test("nested entities a user may not view leave their parent's list; the parent stays (IQ read-perms nested)")
  func nested() {
    var w = Self.zeneca()
    let rules: JSON = ["bookshelves": ["allow": ["view": "data.title != '2022'"]]]
    let q: JSON = ["users": ["bookshelves": [:]]]
    #expect(w.query(rules, q) == .success(["users": Self.allUsers]))
    let stopaShelves = w.visibleLabels(rules, q, of: "stopa")
    #expect(!stopaShelves.contains("bookshelves"))
    #expect(w.visibleLabels(rules, q, of: "alex").contains("bookshelves"))
  }

  @Test("a where clause through an entity the user may not view matches nothing (IQ users-table-perms-with-references)")
  func whereThroughHidden() {
    var w = Self.zeneca()
    w.seed(w.create("books", "sum", ["title": "Sum"]) + w.link("books", "sum", "creator", "alexUser"))
    let q: JSON = ["books": ["$": ["where": ["creator.email": "alex@instantdb.com"]]]]
    #expect(w.query([:], q, as: "joeUser") == .success(["books": []]))
    #expect(w.query([:], q, as: "alexUser") == .success(["books": ["sum"]]))
  }

  @Test("$users: a user sees only themself by default (IQ users-table-read-permissions)")
  func usersTable() {
    var w = Self.zeneca()
    #expect(w.query([:], ["$users": [:]]) == .success(["$users": []]))
    #expect(w.query([:], ["$users": [:]], as: "alexUser") == .success(["$users": ["alexUser"]]))
    #expect(w.query(["$users": ["allow": ["view": "true"]]], ["$users": [:]]) == .success(["$users": ["alexUser", "joeUser"]]))
  }

  @Test("auth.ref in a view rule (IQ auth-ref-perms)")
  func authRef() {
    var w = Self.zeneca()
    w.seed(w.create("books", "sum", ["title": "Sum"]) + w.link("books", "sum", "creator", "alexUser"))
    w.seed(w.create("books", "other", ["title": "Other"]))
    let rules: JSON = ["books": ["allow": ["view": "'Sum' in auth.ref('$user.books.title')"]]]
    #expect(w.query(rules, ["books": [:]], as: "alexUser") == .success(["books": ["other", "sum"]]))
    #expect(w.query(rules, ["books": [:]], as: "joeUser") == .success(["books": []]))
  }

  @Test("one id in two namespaces: each namespace's rule decides for its own triples (IQ namespaces-that-share-eids)")
  func sharedIDs() {
    var w = PermWorld()
    let id = w.id("shared")
    w.seed([
      ["add-triple", .string(id), .string(w.attr("books", "id")), .string(id)],
      ["add-triple", .string(id), .string(w.attr("books", "title")), "a book"],
      ["add-triple", .string(id), .string(w.attr("users", "id")), .string(id)],
      ["add-triple", .string(id), .string(w.attr("users", "handle")), "a user"],
    ])
    let rules: JSON = ["books": ["allow": ["view": "false"]], "users": ["allow": ["view": "true"]]]
    #expect(w.query(rules, ["books": [:], "users": [:]]) == .success(["books": [], "users": ["shared"]]))
  }

  @Test("field rules hide one attribute of the entities that fail them (IQ field-rules-can-filter-columns)")
  func fieldRules() {
    var w = Self.zeneca()
    let rules: JSON = ["users": ["allow": ["view": "true"], "fields": ["email": "data.handle == 'joe'", "handle": "data.handle == 'alex'"]]]
    let q: JSON = ["users": [:]]
    #expect(w.query(rules, q) == .success(["users": Self.allUsers]))
    #expect(w.visibleLabels(rules, q, of: "joe") == ["id", "email"])
    #expect(w.visibleLabels(rules, q, of: "alex") == ["id", "handle"])
    #expect(w.visibleLabels(rules, q, of: "stopa") == ["id"])
  }

  @Test("$default combinations (IQ default-perms)")
  func defaultPerms() {
    var w = Self.zeneca()
    let q: JSON = ["users": [:]]
    let cases: [(JSON, [String])] = [
      (["users": ["allow": ["$default": "false"]]], []),
      (["users": ["allow": ["$default": "false", "view": "true"]]], Self.allUsers),
      (["$default": ["allow": ["$default": "false"]]], []),
      (["$default": ["allow": ["$default": "false", "view": "true"]]], Self.allUsers),
      (["$default": ["allow": ["view": "false"]]], []),
      (["$default": ["allow": ["view": "false"]], "users": ["allow": ["view": "true"]]], Self.allUsers),
      (["$default": ["allow": ["$default": "false"]], "users": ["allow": ["$default": "true"]]], Self.allUsers),
    ]
    for (rules, expected) in cases {
      #expect(w.query(rules, q) == .success(["users": expected]), "\(rules)")
    }
  }
}
