import InstantDB

extension Shared where Value == AuthSession {
  /// Signs in as a new guest user.
  public func signInAsGuest(
    onSuccess: (@Sendable (AuthUser) -> Void)? = nil, onError: (@Sendable (any Error) -> Void)? = nil
  ) {
    perform(onSuccess: onSuccess, onError: onError) { try await $0.signInAsGuest() }
  }

  /// Emails a sign-in code to `email`; then call ``verifyMagicCode(email:code:onSuccess:onError:)``.
  public func sendMagicCode(
    to email: String, onSuccess: (@Sendable () -> Void)? = nil, onError: (@Sendable (any Error) -> Void)? = nil
  ) {
    perform(onSuccess: { _ in onSuccess?() }, onError: onError) { try await $0.sendMagicCode(email: email) }
  }

  /// Signs in with the code emailed to `email`.
  public func verifyMagicCode(
    email: String, code: String,
    onSuccess: (@Sendable (AuthUser) -> Void)? = nil, onError: (@Sendable (any Error) -> Void)? = nil
  ) {
    perform(onSuccess: onSuccess, onError: onError) { try await $0.signInWithMagicCode(email: email, code: code) }
  }

  /// Signs in with an ID token from an OAuth client configured for the app (Sign in with Apple, Google).
  public func signInWithIdToken(
    clientName: String, idToken: String, nonce: String? = nil,
    onSuccess: (@Sendable (AuthUser) -> Void)? = nil, onError: (@Sendable (any Error) -> Void)? = nil
  ) {
    perform(onSuccess: onSuccess, onError: onError) {
      try await $0.signInWithIdToken(clientName: clientName, idToken: idToken, nonce: nonce)
    }
  }

  /// Signs out.
  public func signOut(onSuccess: (@Sendable () -> Void)? = nil, onError: (@Sendable (any Error) -> Void)? = nil) {
    perform(onSuccess: { _ in onSuccess?() }, onError: onError) { await $0.signOut() }
  }

  /// Clears the last operation's error.
  public func clearError() {
    withLock {
      $0.error = nil
      if $0.operationStatus == .error { $0.operationStatus = .idle }
    }
  }

  /// Runs `operation` on the session's client with `operationStatus` pending, then success or error.
  private func perform<T: Sendable>(
    onSuccess: (@Sendable (T) -> Void)?, onError: (@Sendable (any Error) -> Void)?,
    _ operation: @escaping @Sendable (InstantClient) async throws -> T
  ) {
    guard let client = wrappedValue.client else {
      let error = AuthSessionNotConnected()
      withLock {
        $0.operationStatus = .error
        $0.error = error
      }
      onError?(error)
      return
    }
    withLock {
      $0.operationStatus = .pending
      $0.error = nil
    }
    Task {
      do {
        let result = try await operation(client)
        withLock { $0.operationStatus = .success }
        onSuccess?(result)
      } catch {
        withLock {
          $0.operationStatus = .error
          $0.error = error
        }
        onError?(error)
      }
    }
  }
}

/// An auth operation on an `AuthSession` made by hand rather than by `.instantAuth`.
public struct AuthSessionNotConnected: Error, CustomStringConvertible {
  public var description: String { "this AuthSession was not made by .instantAuth, so it has no client" }
}
