public import Foundation
import InstantCore
import Logging

extension InstantClient {
  /// Who is signed in now.
  public var authState: AuthState {
    get async {
      await reactor.loadUser(from: userFile)
      return await reactor.auth.state
    }
  }

  /// ``authState`` now and after every change.
  public func authStateUpdates() -> AsyncStream<AuthState> {
    let (reactor, userFile, id) = (self.reactor, self.userFile, UUID())
    return AsyncStream { continuation in
      continuation.onTermination = { _ in Task { await reactor.unwatchAuth(id) } }
      Task {
        await reactor.loadUser(from: userFile)
        await reactor.watchAuth(id, continuation)
      }
    }
  }

  /// Signs in as a new guest user (no email); a later ``signInWithMagicCode(email:code:)``
  /// upgrades the guest, keeping its id.
  @discardableResult
  public func signInAsGuest() async throws(InstantClientError) -> AuthUser {
    let user = try await authAPI.signInAsGuest()
    await changeUser(user)
    return user
  }

  /// Asks the server to email a 6-digit code to `email` (instant-local logs it instead).
  public func sendMagicCode(email: String) async throws(InstantClientError) {
    try await authAPI.sendMagicCode(email: email)
  }

  /// Signs in with the code sent to `email`. A wrong or used code throws
  /// ``InstantClientError/Kind/authRejected`` and changes nothing.
  @discardableResult
  public func signInWithMagicCode(email: String, code: String) async throws(InstantClientError) -> AuthUser {
    let guest = await currentGuestToken()
    let user = try await authAPI.verifyMagicCode(email: email, code: code, guestToken: guest)
    await changeUser(user)
    return user
  }

  /// Signs in with a refresh token your backend made (`InstantAdmin.createToken(email:)`, the
  /// admin SDK's `auth.createToken`): the server checks it first. An unknown token throws
  /// ``InstantClientError/Kind/authRejected`` and changes nothing.
  @discardableResult
  public func signInWithToken(_ refreshToken: String) async throws(InstantClientError) -> AuthUser {
    let user = try await authAPI.verifyRefreshToken(refreshToken)
    await changeUser(user)
    return user
  }

  /// Signs in with an OpenID Connect ID token from the platform (Sign in with Apple, Google):
  /// `clientName` is the OAuth client's name in the app's settings; `nonce` the one the token was
  /// requested with, if any.
  @discardableResult
  public func signInWithIdToken(clientName: String, idToken: String, nonce: String? = nil) async throws(InstantClientError) -> AuthUser {
    await reactor.loadUser(from: userFile)
    let current = await reactor.refreshToken
    let user = try await authAPI.signInWithIdToken(clientName: clientName, idToken: idToken, nonce: nonce, currentToken: current)
    await changeUser(user)
    return user
  }

  /// The address that starts a sign-in through `clientName` (an OAuth client with a client
  /// secret) in a browser: open it in a web session (`ASWebAuthenticationSession` on Apple
  /// platforms, `signInWithOAuth(clientName:redirectURL:)` there); the server sends the browser back to
  /// `redirectURL` — one of the app's redirect origins — with `code` (exchange it with
  /// ``exchangeOAuthCode(code:codeVerifier:)``) or `error`. With a ``PKCE`` pair only this app can
  /// exchange the code.
  public func createAuthorizationURL(clientName: String, redirectURL: URL, pkce: PKCE? = nil) -> URL {
    let components = URLComponents(url: apiURI.appendingPathComponent("runtime/oauth/start"), resolvingAgainstBaseURL: false)
    var items = [
      URLQueryItem(name: "app_id", value: appId), URLQueryItem(name: "client_name", value: clientName),
      URLQueryItem(name: "redirect_uri", value: redirectURL.absoluteString),
    ]
    if let pkce {
      items += [URLQueryItem(name: "code_challenge", value: pkce.challenge), URLQueryItem(name: "code_challenge_method", value: "S256")]
    }
    guard var components else { return apiURI }
    components.queryItems = items
    // `+` is a space to form decoders: encode it, as the query carries a URL.
    let query = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    components.percentEncodedQuery = query
    return components.url ?? apiURI
  }

  /// Exchanges the `code` an OAuth web sign-in returned with (its `codeVerifier` when it was started
  /// with a ``PKCE`` pair) for the user, and signs in as them. A code works once, within five
  /// minutes.
  @discardableResult
  public func exchangeOAuthCode(code: String, codeVerifier: String? = nil) async throws(InstantClientError) -> AuthUser {
    await reactor.loadUser(from: userFile)
    let current = await reactor.refreshToken
    let user = try await authAPI.exchangeOAuthCode(code: code, codeVerifier: codeVerifier, currentToken: current)
    await changeUser(user)
    return user
  }

  /// Signs out at once on this device (the socket reopens without a user), then asks the server
  /// to forget the refresh token unless `invalidateToken` is false. A failure of that last call
  /// is logged, not thrown: this device is signed out either way.
  public func signOut(invalidateToken: Bool = true) async {
    await reactor.loadUser(from: userFile)
    let token = await reactor.refreshToken
    await changeUser(nil)
    guard invalidateToken, let token else { return }
    do { try await authAPI.signOut(token) } catch {
      reactor.logger.error("the server could not be told about the sign-out: \(error)")
    }
  }

  /// Asks the server whether the stored user's token is still valid; signs out if the server says
  /// it is unknown (revoked, user deleted). Offline or on a server fault, the stored user stays.
  /// The client also learns this from the socket's `init`; this is the HTTP check.
  public func verifyStoredUser() async {
    await reactor.loadUser(from: userFile)
    guard let token = await reactor.refreshToken else { return }
    do {
      let user = try await authAPI.verifyRefreshToken(token)
      await reactor.receiveVerifiedUser(user)
    } catch where error.kind == .authRejected && error.hint?["record-type"] == "app-user" {
      reactor.logger.error("the server no longer knows the signed-in user; signing out")
      await changeUser(nil)
    } catch {
      reactor.logger.info("could not verify the signed-in user: \(error)")
    }
  }

  var authAPI: AuthAPI { AuthAPI(apiURI: apiURI, appID: appId, http: http) }

  private func changeUser(_ user: AuthUser?) async {
    await reactor.loadUser(from: userFile)
    await reactor.changeUser(user)
  }

  private func currentGuestToken() async -> String? {
    await reactor.loadUser(from: userFile)
    guard case let .guest(user) = await reactor.auth.state else { return nil }
    return user.refreshToken
  }
}
