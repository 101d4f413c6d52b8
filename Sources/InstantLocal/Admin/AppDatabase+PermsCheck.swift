import InstantCore
import InstantPermissions
import OrderedCollections

/// The admin API's permission debugging (`query_perms_check`, `transact_perms_check`;
/// docs/admin.md): a query or transaction as a user or guest, under the app's rules or rules sent
/// with the request, reporting every rule check. The checks are the engine's own, recorded as
/// they run.
extension AppDatabase {
  /// The rules a debug request is checked by: `override`, else the app's, else none (`{}`, under
  /// which only the system namespaces' built-in rules apply, as on the reference).
  func debugRules(_ override: PermissionRules?) -> PermissionRules {
    override ?? rules ?? Self.noRules
  }

  private static let noRules = try! PermissionRules([:])  // `{}` always compiles.

  /// `POST /admin/query_perms_check`: `{check-results, result, rule-wheres}`. instant-local
  /// filters by rules after the query, so `rule-wheres` is always `null`.
  func adminQueryCheck(
    _ q: JSON, as asker: Asker, rules override: PermissionRules?, inference: Bool = false
  ) throws(ServerError) -> JSON {
    let (result, checks) = try adminQuery(q, as: asker, rules: debugRules(override), recording: true, inference: inference)
    return ["check-results": .array(checks.map(\.queryResult)), "result": result, "rule-wheres": .null]
  }

  /// `POST /admin/transact_perms_check`: applies the steps, runs every check, and reverts them
  /// unless `commit` is set and every check passed; then saves and broadcasts them as any
  /// transaction. `{tx-id, all-checks-ok?, committed?, check-results}`; `tx-id` is `null` when
  /// nothing was committed.
  func adminTransactCheck(
    _ steps: JSON, throwOnMissingAttrs: Bool, as asker: Asker, rules override: PermissionRules?, commit: Bool
  ) throws(ServerError) -> JSON {
    let txSteps = try adminTxSteps(steps, throwOnMissingAttrs: throwOnMissingAttrs)
    let now = nowMillis()
    let changes = try apply(txSteps, now: now, systemWrite: false)
    let checks: [PermissionCheck]
    do {
      checks = try debugRules(override).checkEach(changes, in: store, context: ruleContext(asker, now: now))
    } catch {
      store.revert(changes)
      throw error
    }
    let allPassed = checks.allSatisfy(\.passed)
    var txID: JSON = .null
    if commit, allPassed {
      let (id, changed) = try persist(changes, now: now)
      invalidate(changed: changed)
      txID = .number(Double(id))
    } else {
      store.revert(changes)
    }
    return [
      "tx-id": txID, "all-checks-ok?": .bool(allPassed), "committed?": .bool(txID != .null),
      "check-results": .array(checks.map(\.transactionResult)),
    ]
  }
}
