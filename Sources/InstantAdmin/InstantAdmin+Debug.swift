public import InstantCore
public import OrderedCollections

/// Debugging permission rules, as `@instantdb/admin`'s `debugQuery` and `debugTransact` do
/// (`/admin/query_perms_check`, `/admin/transact_perms_check`): a query or transaction as a user
/// or guest, under the app's rules or rules sent with the request, with every check reported.
///
/// Both need the admin token and a user or guest (``asUser(email:)``, ``asUser(refreshToken:)``,
/// ``asGuest()``): as the admin no rule applies, and the server refuses.
extension InstantAdmin {
  /// Runs a query as this user or guest and reports each rule check: the view rule of every
  /// entity the query found, visible or not, and each field rule.
  ///
  /// - Parameters:
  ///   - query: an InstaQL query, as for ``query(_:ruleParams:inference:)``.
  ///   - rules: rules to check with instead of the app's (the JSON of `instant.perms.ts`); the
  ///     server refuses rules that do not compile, as a push. `nil`: the app's rules.
  ///   - ruleParams: what rules read as `ruleParams`.
  ///   - inference: the result's has-one links as one entity, as for ``query(_:ruleParams:inference:)``.
  public func debugQuery(
    _ query: JSON, rules: JSON? = nil, ruleParams: JSONObject? = nil, inference: Bool = false
  ) async throws(InstantAdminError) -> AdminQueryCheck {
    var body: JSONObject = ["query": Self.withRuleParams(query, ruleParams), "inference?": .bool(inference)]
    if let rules { body["rules-override"] = rules }
    let answer = try await send("POST", "admin/query_perms_check", body: .object(body))
    return AdminQueryCheck(result: answer["result"] ?? .null, checks: try Self.checks(answer))
  }

  /// Checks a transaction as this user or guest without writing it (unless `dangerouslyCommit`)
  /// and reports each rule check, refused ones included.
  ///
  /// - Parameters:
  ///   - ops: the operations, as for ``transact(_:)``.
  ///   - rules: rules to check with instead of the app's; refused if they do not compile.
  ///     `nil`: the app's rules.
  ///   - dangerouslyCommit: writes the transaction when every check passes, as
  ///     ``transact(_:)`` would. Off by default: nothing is written and no subscriber hears of it.
  public func debugTransact(_ ops: [InstaMLOp], rules: JSON? = nil, dangerouslyCommit: Bool = false)
    async throws(InstantAdminError) -> AdminTransactCheck
  {
    var body: JSONObject = ["steps": .array(ops.map(\.json))]
    if let rules { body["rules-override"] = rules }
    if dangerouslyCommit { body["dangerously-commit-tx"] = true }
    let answer = try await send("POST", "admin/transact_perms_check", body: .object(body))
    guard let allPassed = answer["all-checks-ok?"]?.boolValue else {
      throw InstantAdminError(.badResponse, "the answer has no all-checks-ok?")
    }
    return AdminTransactCheck(
      txID: answer["tx-id"]?.intValue, allChecksPassed: allPassed, committed: answer["committed?"]?.boolValue ?? false,
      checks: try Self.checks(answer))
  }

  private static func checks(_ answer: JSON) throws(InstantAdminError) -> [AdminPermissionCheck] {
    guard let entries = answer["check-results"]?.arrayValue else {
      throw InstantAdminError(.badResponse, "the answer has no check-results")
    }
    var checks: [AdminPermissionCheck] = []
    for entry in entries {
      guard let check = AdminPermissionCheck(entry) else { throw InstantAdminError(.badResponse, "a check result has no namespace") }
      checks.append(check)
    }
    return checks
  }
}
