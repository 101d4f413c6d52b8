#if canImport(AuthenticationServices)
  public import AuthenticationServices
  public import Foundation

  extension InstantClient {
    /// Signs in through `clientName` (an OAuth client of the app with a client secret) in the
    /// system's web session: the user signs in at the provider, the server sends the session back to
    /// `redirectURL` (a URL of the app's own scheme, one of its redirect origins), and the code it
    /// carries is exchanged with a fresh ``PKCE`` verifier. Cancelled by the user:
    /// ``InstantClientError/Kind/cancelled``; refused: ``InstantClientError/Kind/authRejected``.
    ///
    /// On other platforms, open ``createAuthorizationURL(clientName:redirectURL:pkce:)`` in a browser
    /// and pass the code it returns with to ``exchangeOAuthCode(code:codeVerifier:)``.
    @MainActor
    @discardableResult
    public func signInWithOAuth(
      clientName: String, redirectURL: URL, anchor: ASPresentationAnchor? = nil, ephemeral: Bool = false
    ) async throws(InstantClientError) -> AuthUser {
      let pkce = PKCE()
      let start = createAuthorizationURL(clientName: clientName, redirectURL: redirectURL, pkce: pkce)
      guard let scheme = redirectURL.scheme else {
        throw InstantClientError(.authRejected, "the redirect URL has no scheme: \(redirectURL.absoluteString)")
      }
      let provider = WebSessionAnchor(anchor: anchor ?? ASPresentationAnchor())
      let returned: URL
      do {
        returned = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
          let session = ASWebAuthenticationSession(url: start, callbackURLScheme: scheme) { url, error in
            if let url {
              continuation.resume(returning: url)
            } else {
              continuation.resume(throwing: error ?? CancellationError())
            }
          }
          session.presentationContextProvider = provider
          session.prefersEphemeralWebBrowserSession = ephemeral
          if !session.start() { continuation.resume(throwing: CancellationError()) }
        }
      } catch {
        throw InstantClientError(.cancelled, "the web sign-in ended without signing in", underlying: error)
      }
      let items = URLComponents(url: returned, resolvingAgainstBaseURL: false)?.queryItems ?? []
      if let message = items.first(where: { $0.name == "error" })?.value {
        throw InstantClientError(.authRejected, message)
      }
      guard let code = items.first(where: { $0.name == "code" })?.value else {
        throw InstantClientError(.authRejected, "the web sign-in returned without a code")
      }
      return try await exchangeOAuthCode(code: code, codeVerifier: pkce.verifier)
    }
  }

  /// Where the web session shows itself.
  private final class WebSessionAnchor: NSObject, ASWebAuthenticationPresentationContextProviding {
    let anchor: ASPresentationAnchor
    init(anchor: ASPresentationAnchor) { self.anchor = anchor }
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor { anchor }
  }
#endif
