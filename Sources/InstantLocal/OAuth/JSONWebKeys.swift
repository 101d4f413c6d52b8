import Crypto
import Foundation
import InstantCore
import OrderedCollections
import _CryptoExtras

/// A provider's signing keys (a JWKS, RFC 7517), by `kid`: RSA keys for `RS256` and P-256 keys for
/// `ES256`, the two algorithms the reference accepts. Keys of other types, or that do not parse,
/// are left out (a provider may publish keys for other uses).
struct JSONWebKeys: Sendable {
  enum Key: Sendable {
    case rsa(_RSA.Signing.PublicKey)
    case p256(P256.Signing.PublicKey)
  }

  private(set) var keys: [String: Key] = [:]

  init(_ keys: [String: Key] = [:]) { self.keys = keys }

  /// Reads a JWKS document (`{"keys": [...]}`); `nil` when it is not one.
  init?(json: JSON) {
    guard let list = json["keys"]?.arrayValue else { return nil }
    for entry in list {
      guard let kid = entry["kid"]?.stringValue, let key = Self.key(entry) else { continue }
      keys[kid] = key
    }
  }

  subscript(kid: String) -> Key? { keys[kid] }

  private static func key(_ jwk: JSON) -> Key? {
    func bytes(_ name: String) -> Data? { jwk[name]?.stringValue.flatMap { JSONWebToken.base64URL(Substring($0)) } }
    switch jwk["kty"]?.stringValue {
    case "RSA":
      guard let n = bytes("n"), let e = bytes("e"), let key = try? _RSA.Signing.PublicKey(n: n, e: e) else { return nil }
      return .rsa(key)
    case "EC":
      guard jwk["crv"]?.stringValue == "P-256", let x = bytes("x"), let y = bytes("y"), x.count == 32, y.count == 32,
        let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
      else { return nil }
      return .p256(key)
    default:
      return nil
    }
  }
}

extension JSONWebKeys.Key {
  /// Whether `signature` over `input` is this key's, for the token's `alg`. A key answers only
  /// for its own algorithm: an RSA key never validates an `ES256` token, nor one of `none` or
  /// `HS256` (which would make the public key a shared secret).
  func verifies(_ signature: Data, over input: Data, algorithm: String) -> Bool {
    switch (self, algorithm) {
    case (.rsa(let key), "RS256"):
      return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
    case (.p256(let key), "ES256"):
      guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
      return key.isValidSignature(signature, for: SHA256.hash(data: input))
    default:
      return false
    }
  }
}
