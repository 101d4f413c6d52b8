import InstantDB

/// Everything about signing in, as `@Shared(.instantAuth)` holds it: the client's auth state, and
/// the status and error of the last operation started with `$auth.signInAsGuest()` and friends.
public struct AuthSession: Sendable, Equatable {
  /// The client's auth state: loading, signed out, guest or signed in.
  public var state: AuthState
  /// The status of the current or last operation.
  public var operationStatus: OperationStatus
  /// The last operation's error, cleared when a new one starts.
  public var error: (any Error)?
  /// The client the operations go to; `nil` in a session made by hand.
  let client: InstantClient?

  public init(state: AuthState = .loading, operationStatus: OperationStatus = .idle, error: (any Error)? = nil) {
    self.init(state: state, operationStatus: operationStatus, error: error, client: nil)
  }

  init(state: AuthState, operationStatus: OperationStatus, error: (any Error)?, client: InstantClient?) {
    self.state = state
    self.operationStatus = operationStatus
    self.error = error
    self.client = client
  }

  public var isLoading: Bool { operationStatus == .pending }
  public var isError: Bool { error != nil }
  public var isSuccess: Bool { operationStatus == .success }
  public var isIdle: Bool { operationStatus == .idle }
  /// The signed-in user, guest or not.
  public var user: AuthUser? { state.user }
  public var isSignedIn: Bool { user != nil }
  /// Signed in, and not as a guest.
  public var isAuthenticated: Bool { if case .signedIn = state { true } else { false } }
  public var isGuest: Bool { if case .guest = state { true } else { false } }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.state == rhs.state && lhs.operationStatus == rhs.operationStatus
      && lhs.error.map { "\($0)" } == rhs.error.map { "\($0)" }
  }
}
