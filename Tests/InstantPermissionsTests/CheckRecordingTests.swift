import InstantCore
import OrderedCollections
import Testing

@testable import InstantPermissions

/// The engine's recording runs (the admin debug routes'): every check, with its rule and answer,
/// from the same evaluation that enforces. `PermWorld` also compares each recording run with the
/// enforcing one in every rule test.
@Suite("Recording rule checks")
struct CheckRecordingTests {
  @Test("A recording run goes on after a refusal and reports each check with its rule, id and data")
  func everyCheck() throws {
    var w = TransactionRuleTests.zeneca()
    let rules = try PermissionRules(["users": ["allow": ["update": "data.handle == 'alex'", "create": "true"]]])
    let steps = w.update("users", "stopa", ["handle": "s"]) + w.update("users", "alex", ["handle": "a"]) + w.create("users", "joe")
    let changes = try w.store.applyServerTransaction(.array(steps), now: w.now)
    let checks = try rules.checkEach(changes, in: w.store, context: w.context(nil))
    let summary = checks.map { "\($0.action) \($0.id ?? "-") \($0.rule?.source ?? "-") \($0.passed)" }
    #expect(
      summary == [
        "update \(w.id("stopa")) data.handle == 'alex' false", "update \(w.id("alex")) data.handle == 'alex' true",
        "create \(w.id("joe")) true true",
      ])
    #expect(checks[0].bindings["data"]?["handle"] == "stopa")
    #expect(checks[0].bindings["new-data"]?["handle"] == "s")
    #expect(checks[0].bindings["modified-fields"] == ["handle"])
    #expect(rules.check(changes, in: w.store, context: w.context(nil))?.type == .permissionDenied)
  }

  @Test("code is the rule wrapped in cel.bind for each bind it uses, the first evaluated outermost")
  func codeWithBinds() throws {
    var w = TransactionRuleTests.zeneca()
    let rules = try PermissionRules([
      "users": ["allow": ["view": "shown"], "bind": ["shown", "signedIn && true", "signedIn", "auth.id != null", "unused", "1 == 1"]]
    ])
    let result = try w.store.serverQuery(["users": [:]])
    let (_, checks) = try rules.visibleTriplesChecked(result.triples, in: w.store, context: w.context("alexUser"), ruleParams: [:])
    #expect(checks.count == 2)
    #expect(checks.allSatisfy { $0.code == "cel.bind(signedIn, auth.id != null, cel.bind(shown, signedIn && true, shown))" && $0.passed })
    #expect(checks.first?.queryResult["program"]?["display-code"] == "shown")
  }

  @Test("A rule that cannot be evaluated fails a recording run with its cause")
  func evaluationError() throws {
    var w = TransactionRuleTests.zeneca()
    let rules = try PermissionRules(["users": ["allow": ["update": "1 / 0 == 1"]]])
    let changes = try w.store.applyServerTransaction(.array(w.update("users", "stopa", ["handle": "s"])), now: w.now)
    #expect {
      _ = try rules.checkEach(changes, in: w.store, context: w.context(nil))
    } throws: { error in
      guard let error = error as? ServerError else { return false }
      return error.type == .permissionEvaluationFailed && !error.message.contains("You may have a typo")
    }
  }
}
