import InstantCore
import OrderedCollections
import Testing

@testable import InstantPermissions

/// Rules the reference refuses when they are pushed (`rule_test.clj`, "RT"; `cel_test.clj`,
/// "CT"), and hostile rules: each a clear error, never a crash or a hang.
@Suite("Reading rules")
struct RulesValidationTests {
  /// The problems of `rules`, as (message, `in`) pairs; empty when they are accepted.
  static func problems(_ rules: JSON) -> [(String, [String])] {
    do {
      _ = try PermissionRules(rules)
      return []
    } catch {
      return error.problems.map { ($0.message, $0.path) }
    }
  }

  @Test("accepted: the documentation's examples")
  func docsExamples() {
    let rules: JSON = [
      "todos": [
        "allow": ["view": "auth.id != null", "create": "isOwner", "update": "isOwner && isStillOwner", "delete": "isOwner"],
        "bind": ["isOwner", "auth.id != null && auth.id == data.creatorId", "isStillOwner", "auth.id != null && auth.id == newData.creatorId"],
      ],
      "$users": ["allow": ["view": "true"], "fields": ["email": "auth.id == data.id"]],
      "attrs": ["allow": ["$default": "false"]],
      "docs": ["allow": ["view": "ruleParams.secret in data.ref('docLinks.secret')", "update": true]],
    ]
    #expect(Self.problems(rules).isEmpty)
  }

  @Test("a bind cycle (RT does-not-allow-cyclic-dependencies)")
  func bindCycle() {
    let problems = Self.problems(["myetype": ["allow": ["view": "a"], "bind": ["a", "b", "b", "a"]]])
    #expect(problems.contains { $0.0 == "The binds have a cyclic dependency a -> b -> a" && $0.1 == ["myetype", "allow", "view"] })
  }

  @Test("binds: an odd list, a repeated name (RT)")
  func bindShapes() {
    #expect(Self.problems(["x": ["bind": ["a", "true", "b"]]]).contains { $0.0 == "bind should have an even number of elements" && $0.1 == ["x", "bind"] })
    #expect(Self.problems(["x": ["bind": ["a", "true", "a", "false"]]]).contains { $0.0 == "bind should only contain a given variable name once" && $0.1 == ["x", "bind", "a"] })
  }

  @Test("$users.delete may only be \"false\" (RT can-set-create-view-update-rules-for-users)")
  func usersDelete() {
    #expect(Self.problems(["$users": ["allow": ["delete": "true"]]]).map(\.1) == [["$users", "allow", "delete"]])
    #expect(Self.problems(["$users": ["allow": ["delete": "false", "view": "true", "create": "true", "update": "true"]]]).isEmpty)
  }

  @Test("reserved namespaces get no rules (RT cant-write-rules-for-system-attrs)")
  func reserved() {
    let problems = Self.problems(["$codes": ["allow": ["update": "true"]]])
    #expect(problems.count == 4)
    #expect(problems.allSatisfy { $0.0 == "The $codes namespace is a reserved internal namespace that does not yet support rules." })
  }

  @Test("auth.ref paths start with $user. (RT invalid-auth-ref-fails)")
  func authRefPrefix() {
    #expect(Self.problems(["x": ["allow": ["view": "1 in auth.ref('$users.id')"]]]).map(\.0) == ["auth.ref arg must start with `$user.`"])
    #expect(Self.problems(["x": ["allow": ["view": "'a' in auth.ref(\"$user.roles.name\")"]]]).isEmpty)
  }

  @Test("no field rule on id (RT fields-cannot-set-id)")
  func fieldOnID() {
    #expect(Self.problems(["x": ["fields": ["id": "true"]]]).map(\.1) == [["x", "fields"]])
  }

  @Test("view and delete rules cannot read newData (CT view-delete-does-not-allow-newData)")
  func undeclared() {
    #expect(Self.problems(["x": ["allow": ["view": "newData.isFavorite"]]]).map(\.0) == ["undeclared reference to 'newData'"])
    #expect(Self.problems(["x": ["allow": ["delete": "newData.isFavorite"]]]).map(\.0) == ["undeclared reference to 'newData'"])
    #expect(Self.problems(["x": ["allow": ["update": "newData.isFavorite"]]]).isEmpty)
    // An unused bind may mention what the rule cannot.
    #expect(Self.problems(["x": ["allow": ["view": "true"], "bind": ["unused", "linkedData.id"]]]).isEmpty)
  }

  @Test("a syntax error names where in the rule it is")
  func syntaxError() throws {
    var problem: CompiledRule.Problem?
    do { _ = try PermissionRules(["x": ["allow": ["view": "auth.id == "]]]) } catch { problem = error.problems.first }
    let found = try #require(problem)
    #expect(found.path == ["x", "allow", "view"])
    #expect(found.line == 1)
    #expect(found.column != nil)
  }

  @Test("hostile rules: deep nesting, a huge in list, a long chain — refused or evaluated fast, never a crash")
  func hostile() {
    let deep = String(repeating: "(", count: 20_000) + "true" + String(repeating: ")", count: 20_000)
    #expect(!Self.problems(["x": ["allow": ["view": .string(deep)]]]).isEmpty)
    let nots = String(repeating: "!", count: 50_000) + "true"
    #expect(!Self.problems(["x": ["allow": ["view": .string(nots)]]]).isEmpty)
    let huge = "data.id in [" + (0..<100_000).map { "'\($0)'" }.joined(separator: ",") + "]"
    #expect(!Self.problems(["x": ["allow": ["view": .string(huge)]]]).isEmpty)
    // A comprehension that would run 10^12 steps stops at the evaluation limit: an error, which denies.
    var w = TransactionRuleTests.zeneca()
    let rules: JSON = ["users": ["allow": ["update": "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, true))))))"]]]
    #expect(w.transact(rules, w.update("users", "stopa", ["email": "x"])) == .refused(.permissionEvaluationFailed, ["users", "update"]))
  }

  @Test("unknown functions are refused when the rules are read")
  func unknownFunction() {
    #expect(!Self.problems(["x": ["allow": ["view": "isValidEmail(data.email)"]]]).isEmpty)
    #expect(!Self.problems(["x": ["allow": ["view": "rateLimit.posts.limit(auth.id)"]]]).isEmpty)
  }

  @Test("ref paths through a link cycle terminate")
  func refCycle() {
    var w = TransactionRuleTests.zeneca()
    let path = Array(repeating: "bookshelves.users", count: 200).joined(separator: ".") + ".handle"
    let rules: JSON = ["users": ["allow": ["update": .string("'alex' in data.ref('\(path)')")]]]
    #expect(w.transact(rules, w.update("users", "alex", ["email": "x"])) == .allowed)
  }
}
