package import InstantCore
import OrderedCollections

extension PermissionRules {
  /// Whether a new user may sign up (magic code, guest, ID token): `$users.allow.create` alone,
  /// with no fallback, evaluated with the new user as `data`, `newData` and `auth` (it has no
  /// links yet, so `ref` finds nothing). Without that rule a sign-up is allowed, unless it sets
  /// extra fields: then a rule is required, as on InstantDB. `nil`: allowed.
  package func checkSignup(_ user: JSONObject, setsExtraFields: Bool, context: RuleContext) -> ServerError? {
    guard let rule = document.signupRule else {
      return setsExtraFields ? PermissionDenial.denied("$users", scope: "create") : nil
    }
    switch program(rule, .write) {
    case let .failure(problem):
      return PermissionDenial.invalidRule(problem)
    case let .success(program):
      let record = RuleValues.record(user)
      let variables = [
        "data": record, "newData": record, "auth": record, "ruleParams": RuleValues.record([:]),
        "request": context.request(modifiedFields: Array(user.keys.filter { $0 != "id" })),
      ]
      do {
        return try program.allows(variables) ? nil : PermissionDenial.denied("$users", scope: "create")
      } catch {
        return PermissionDenial.evaluationFailed("$users", "create", error, showCause: false)
      }
    }
  }
}
