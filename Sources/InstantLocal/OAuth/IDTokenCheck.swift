import Foundation
import InstantCore
import OrderedCollections

/// Whether to believe an ID token: its signature against the provider's published keys, then its
/// claims, in the reference server's order and with its messages (docs/instant-local.md, "Sign in
/// with an ID token"). What passes is the identity the token vouches for.
struct IDTokenCheck {
  /// Who the token says signed in.
  struct Identity: Equatable {
    var subject: String
    /// The email, only when the provider says it was verified.
    var email: String?
    var picture: String?
  }

  let directory: OpenIDDirectory

  /// Checks `token`, made for `client`, whose sign-in sent `nonce`.
  func verify(_ token: String, client: OAuthClient, nonce: String?) async throws(ServerError) -> Identity {
    guard let jwt = JSONWebToken(token) else { throw OpenIDDirectory.oauthError("Invalid JWT.") }
    let algorithm = jwt.algorithm ?? "none"
    guard algorithm == "RS256" || algorithm == "ES256" else {
      throw OpenIDDirectory.oauthError("Unsupported signing algorithm \(algorithm)")
    }
    guard let endpoint = client.endpoint else { throw OpenIDDirectory.oauthError("Unable to fetch OAuth configuration.") }
    let provider = try await directory.provider(at: endpoint)
    guard let kid = jwt.keyID else { throw OpenIDDirectory.oauthError("Error validating JWT. Could not find signing key.") }
    let key = try await directory.key(kid, at: provider.jwksURI)
    guard key.verifies(jwt.signature, over: jwt.signingInput, algorithm: algorithm) else {
      throw OpenIDDirectory.oauthError("Error validating JWT. Signature is invalid.")
    }
    let claims = jwt.claims
    let seconds = directory.clock.now.timeIntervalSince1970
    guard let exp = claims["exp"]?.numberValue, seconds < exp else {
      throw OpenIDDirectory.oauthError("Error validating JWT. Token is expired.")
    }
    if let nbf = claims["nbf"]?.numberValue, seconds < nbf {
      throw OpenIDDirectory.oauthError("Error validating JWT. The token can't be used yet.")
    }
    if let iat = claims["iat"]?.numberValue, seconds < iat {
      throw OpenIDDirectory.oauthError("Error validating JWT. The token was issued in the future.")
    }
    try Self.checkNonce(claims["nonce"]?.stringValue, sent: nonce, issuer: provider.issuer)
    guard let issuer = claims["iss"]?.stringValue, Self.sameIssuer(issuer, provider.issuer) else {
      throw Self.invalid("The id_token wasn't issued by \(provider.issuer).")
    }
    guard provider.algorithms.contains(algorithm) else { throw Self.invalid("The id_token used an unsupported algorithm.") }
    guard !Self.audiences(claims["aud"]).isDisjoint(with: client.acceptedAudiences) else {
      throw Self.invalid("The id_token was generated for the wrong OAuth client.")
    }
    guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw Self.invalid("The id_token had no subject.") }
    var email: String?
    if claims["email_verified"] == .bool(true), let claimed = claims["email"]?.stringValue, claimed.contains("@") {
      email = claimed
    }
    return Identity(subject: subject, email: email, picture: claims["picture"]?.stringValue)
  }

  /// The reference's nonce rule: Google's tokens are not checked (its native libraries do not all
  /// pass one); otherwise the token's nonce is the one sent, or its SHA-256 in hex (Sign in with
  /// Apple on iOS puts the hash in the request and the app sends the raw value).
  static func checkNonce(_ inToken: String?, sent: String?, issuer: String) throws(ServerError) {
    guard issuer != "https://accounts.google.com" else { return }
    if inToken == sent { return }
    guard let inToken else { throw invalid("The id_token is missing a nonce.") }
    guard let sent else { throw invalid("The nonce parameter was not provided in the request.") }
    let hashed = AdminToken.sha256(sent)
    guard inToken == hashed else { throw invalid("The nonces do not match.") }
  }

  /// Apple's two issuer spellings are one issuer, as the reference treats them; so are Google's
  /// two (its tokens carry either, as Google documents).
  static func sameIssuer(_ a: String, _ b: String) -> Bool {
    let spellings: [Set<String>] = [
      ["https://account.apple.com", "https://appleid.apple.com"], ["https://accounts.google.com", "accounts.google.com"],
    ]
    return a == b || spellings.contains { $0.contains(a) && $0.contains(b) }
  }

  /// `aud`: one string or a list of them.
  static func audiences(_ aud: JSON?) -> Set<String> {
    if let one = aud?.stringValue { return [one] }
    return Set(aud?.arrayValue?.compactMap(\.stringValue) ?? [])
  }

  /// A claim check that failed: `validation-failed` on `id_token`, without the token itself.
  static func invalid(_ message: String) -> ServerError {
    .validation("id_token", input: .string("…"), [message])
  }
}
