import CEL
import InstantCore

/// The reference's refusals, as clients read them.
enum PermissionDenial {
  /// A rule answered false (or null): `permission-denied`, with the namespace and what was
  /// checked (`object` for an entity, `attr` for an attribute) and nothing more, as the
  /// reference says no more.
  static func denied(_ etype: String, scope: String = "object") -> ServerError {
    ServerError(
      .permissionDenied, message: "Permission denied: not perms-pass?",
      hint: ["input": [.string(etype), .string(scope)], "expected": "perms-pass?"])
  }

  /// A rule could not be evaluated: `permission-evaluation-failed`, never an allow. The cause
  /// is shown only to admins, as the reference shows it only to them.
  static func evaluationFailed(_ etype: String, _ action: String, _ error: CELEvaluationError, showCause: Bool) -> ServerError {
    let cause = showCause ? error.message : "You may have a typo"
    let message = "Could not evaluate permission rule for `\(etype).\(action)`. \(cause). Debug this in the sandbox and then update your permission rules."
    return ServerError(
      .permissionEvaluationFailed, message: message,
      hint: [
        "rule": [.string(etype), .string(action)],
        "error": ["type": .string(String(describing: error.kind)), "message": .string(message), "hint": .string(cause)],
      ])
  }

  /// A rule that does not compile, met at run time (link rules are not checked when rules are read).
  static func invalidRule(_ problem: CompiledRule.Problem) -> ServerError {
    ServerError(
      .validationFailed, message: "Validation failed for permission: \(problem.message)",
      hint: [
        "data-type": "permission", "input": .array(problem.path.map(JSON.string)),
        "errors": [["message": .string(problem.message), "in": .array(problem.path.map(JSON.string))]],
      ])
  }
}
