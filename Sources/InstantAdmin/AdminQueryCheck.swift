public import InstantCore
import OrderedCollections

/// What ``InstantAdmin/debugQuery(_:rules:ruleParams:inference:)`` returns: the query's result as the user
/// sees it, and every rule check that decided it.
public struct AdminQueryCheck: Sendable, Equatable {
  /// `{namespace: [entity, …]}`, as ``InstantAdmin/query(_:ruleParams:inference:)`` returns it for this user.
  public let result: JSON
  /// A view check for each entity the query found (visible or not), and a check for each field
  /// rule met.
  public let checks: [AdminPermissionCheck]
}
