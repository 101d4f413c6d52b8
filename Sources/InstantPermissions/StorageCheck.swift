package import InstantCore
import OrderedCollections

extension PermissionRules {
  /// The rules of an app that has none, for `$files`: every `$files` rule is the built-in
  /// `false`, so storage stays closed until rules open it, as on InstantDB.
  package static let none: PermissionRules = try! PermissionRules(.object([:]))

  /// Whether the asker may `action` the file at `path` through the storage routes (upload:
  /// `create`, also when it replaces a file; delete: `delete`; a download URL: `view`): the
  /// `$files` rule in the usual lookup order (`$files.allow.<action>`, `$files.allow.$default`,
  /// `$default.allow.<action>`, `$default.allow.$default`, then the built-in `false`), with
  /// `data` = `{path}` only, as the reference's `assert-storage-permission!`. `nil`: allowed.
  package func checkStorage(
    _ action: RulesDocument.Action, path: String, in store: TripleStore, context: RuleContext
  ) -> ServerError? {
    guard let rule = document.rule("$files", action) else { return nil }
    switch program(rule, action == .view || action == .delete ? .view : .write) {
    case let .failure(problem):
      return PermissionDenial.invalidRule(problem)
    case let .success(program):
      let variables = [
        "data": RuleValues.record(["path": .string(path)]), "auth": context.auth(store),
        "ruleParams": RuleValues.record([:]), "request": context.request(modifiedFields: []),
      ]
      do {
        return try program.allows(variables) ? nil : Self.storageDenied(action)
      } catch {
        return PermissionDenial.evaluationFailed("$files", action.rawValue, error, showCause: false)
      }
    }
  }

  /// The reference's refusal of a storage request (`ex/assert-permitted! :has-storage-permission?`).
  package static func storageDenied(_ action: RulesDocument.Action) -> ServerError {
    ServerError(
      .permissionDenied, message: "Permission denied: not has-storage-permission?",
      hint: ["input": ["$files", .string(action.rawValue)], "expected": "has-storage-permission?"])
  }

  /// For an app without rules, where everything else is allowed: refuses a transaction that
  /// writes, links to or deletes a `$files` entity, whose built-in rules all are `false`
  /// (`nil`: nothing of `$files` in it).
  package static func refuseFilesWithoutRules(_ facts: TransactionFacts) -> ServerError? {
    let touchesFiles =
      facts.writes.contains { $0.etype == "$files" || $0.linkedEtype == "$files" }
      || facts.deletes.contains { $0.etype == "$files" }
    return touchesFiles ? PermissionDenial.denied("$files") : nil
  }
}
