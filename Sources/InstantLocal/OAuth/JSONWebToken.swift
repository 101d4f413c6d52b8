import Foundation
import InstantCore
import OrderedCollections

/// A JWT split into its parts (RFC 7519, compact form): what the header and claims say, and the
/// bytes the signature covers. Parsing checks the form only; ``IDTokenCheck`` decides whether to
/// believe it.
struct JSONWebToken {
  let header: JSONObject
  let claims: JSONObject
  /// `base64url(header) + "." + base64url(claims)`, the bytes signed.
  let signingInput: Data
  let signature: Data

  /// `nil` when `token` is not three base64url parts whose first two are JSON objects.
  init?(_ token: String) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
      let header = Self.base64URL(parts[0]).flatMap({ try? JSON.parse(bytes: $0).objectValue }),
      let claims = Self.base64URL(parts[1]).flatMap({ try? JSON.parse(bytes: $0).objectValue }),
      let signature = Self.base64URL(parts[2])
    else { return nil }
    self.header = header
    self.claims = claims
    self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    self.signature = signature
  }

  var algorithm: String? { header["alg"]?.stringValue }
  var keyID: String? { header["kid"]?.stringValue }

  /// Decodes base64url without padding (RFC 7515 §2).
  static func base64URL(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }

  /// Encodes base64url without padding.
  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
