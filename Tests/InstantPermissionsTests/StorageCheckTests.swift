import InstantCore
import InstantPermissions
import Testing

/// The storage routes' check (`assert-storage-permission!`): the `$files` rule in the usual
/// lookup order, `data` = `{path}`, and `$files` closed when no rule says otherwise.
struct StorageCheckTests {
  func check(_ rules: JSON, _ action: RulesDocument.Action, _ path: String, as user: String? = "u1") throws -> ServerError? {
    var world = PermWorld()
    let context = world.context(user)
    return try PermissionRules(rules).checkStorage(action, path: path, in: world.store, context: context)
  }

  @Test("Lookup order: $files.<action>, $files.$default, $default.<action>, $default.$default, then false")
  func lookupOrder() throws {
    #expect(try check([:], .create, "a") == PermissionRules.storageDenied(.create))
    #expect(PermissionRules.none.checkStorage(.view, path: "a", in: PermWorld().store, context: RuleContext(user: nil, time: 0)) != nil)
    #expect(try check(["$default": ["allow": ["$default": "true"]]], .delete, "a") == nil)
    #expect(try check(["$default": ["allow": ["$default": "true", "create": "false"]]], .create, "a") != nil)
    #expect(try check(["$files": ["allow": ["$default": "true"]], "$default": ["allow": ["create": "false"]]], .create, "a") == nil)
    #expect(try check(["$files": ["allow": ["$default": "false", "create": "true"]]], .create, "a") == nil)
    #expect(try check(["$files": ["allow": ["create": "true"]]], .view, "a") == PermissionRules.storageDenied(.view))
  }

  @Test("data is the path only; auth is the user")
  func variables() throws {
    let rules: JSON = ["$files": ["allow": ["create": "auth.id != null && data.path.startsWith('uploads/') && data.size == null"]]]
    #expect(try check(rules, .create, "uploads/a.png") == nil)
    #expect(try check(rules, .create, "other/a.png") != nil)
    #expect(try check(rules, .create, "uploads/a.png", as: nil) != nil)
  }

  @Test("The refusal and an evaluation failure, in the reference's words")
  func errors() throws {
    let denied = try #require(try check([:], .delete, "a"))
    #expect(denied.type == .permissionDenied)
    #expect(denied.httpBody == [
      "type": "permission-denied", "message": "Permission denied: not has-storage-permission?",
      "hint": ["input": ["$files", "delete"], "expected": "has-storage-permission?"],
    ])
    let failed = try #require(try check(["$files": ["allow": ["create": "data.path.size() > ruleParams.x.y"]]], .create, "a"))
    #expect(failed.type == .permissionEvaluationFailed)
    #expect(failed.message.hasPrefix("Could not evaluate permission rule for `$files.create`."))
  }
}
