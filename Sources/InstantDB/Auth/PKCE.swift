import Crypto
import Foundation

/// A PKCE pair (RFC 7636) for an OAuth web sign-in: the app keeps ``verifier`` and sends
/// ``challenge`` (its SHA-256, S256) in ``InstantClient/createAuthorizationURL(clientName:redirectURL:pkce:)``;
/// only the holder of the verifier can then exchange the code the sign-in returns with
/// (``InstantClient/exchangeOAuthCode(code:codeVerifier:)``), so another app that catches the
/// redirect cannot.
public struct PKCE: Sendable, Equatable {
  /// 43 characters from the system's secure random source, base64url.
  public let verifier: String
  /// `base64url(SHA-256(verifier))`, without padding.
  public let challenge: String

  /// A fresh pair.
  public init() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    self.init(verifier: Self.base64URL(Data(bytes)))
  }

  /// The pair for a verifier of your own.
  public init(verifier: String) {
    self.verifier = verifier
    self.challenge = Self.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
  }

  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
