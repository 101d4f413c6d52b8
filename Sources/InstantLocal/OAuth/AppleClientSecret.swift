import Crypto
import Foundation
import InstantCore
import OrderedCollections

/// Sign in with Apple's client secret: not a fixed string but a short-lived ES256 JWT the app
/// signs with the private key Apple gave it (Apple's "Creating a client secret"; the reference's
/// `auth/jwt.clj`).
enum AppleClientSecret {
  /// The key in `pem` (a `.p8` file's PKCS#8 PEM), or nil.
  static func privateKey(_ pem: String) -> P256.Signing.PrivateKey? {
    try? P256.Signing.PrivateKey(pemRepresentation: pem)
  }

  /// The client secret for `client`, valid two minutes from `now`.
  static func make(for client: OAuthClient, now: Date) throws(ServerError) -> String {
    guard let pem = client.clientSecret, let key = privateKey(pem), let team = client.appleTeamID, let keyID = client.appleKeyID else {
      throw OpenIDDirectory.oauthError("The Apple OAuth client has no private key, team id and key id for web sign-in.")
    }
    let issued = now.timeIntervalSince1970.rounded(.down)
    let header: JSON = ["alg": "ES256", "kid": .string(keyID), "typ": "JWT"]
    let claims: JSON = [
      "iss": .string(team), "sub": .string(client.clientID), "aud": "https://appleid.apple.com",
      "iat": .number(issued), "exp": .number(issued + 120),
    ]
    let input = JSONWebToken.base64URL(Data(header.serialized().utf8)) + "." + JSONWebToken.base64URL(Data(claims.serialized().utf8))
    guard let signature = try? key.signature(for: SHA256.hash(data: Data(input.utf8))) else {
      throw OpenIDDirectory.oauthError("Could not sign the Apple client secret.")
    }
    return input + "." + JSONWebToken.base64URL(signature.rawRepresentation)
  }
}
