import InstantCore
import OrderedCollections

/// What ``InstantAdmin/debugTransact(_:rules:dangerouslyCommit:)`` returns: every rule check the
/// transaction met, and whether it was committed.
public struct AdminTransactCheck: Sendable, Equatable {
  /// The transaction's tx-id when it was committed; `nil` on a dry run or a refusal.
  public let txID: Int?
  /// Whether every check passed (the transaction would be accepted).
  public let allChecksPassed: Bool
  /// Whether the transaction was written: only with `dangerouslyCommit` and every check passed.
  public let committed: Bool
  /// Every check, in the order the server made them, refused ones included.
  public let checks: [AdminPermissionCheck]
}
