/// Where the last auth operation started through `$auth` stands.
public enum OperationStatus: String, Sendable, Equatable, CaseIterable {
  /// No operation attempted yet.
  case idle
  /// An operation is in progress.
  case pending
  /// The last operation succeeded.
  case success
  /// The last operation failed; the session's `error` says why.
  case error
}
