import Crypto
import Foundation
import InstantCore

/// An app's sign-in settings as InstantDB's `/dash` routes write them (docs/admin.md, "Sign-in
/// settings"): OAuth providers, clients, redirect origins and the magic-code email, each with an id.
///
/// The data file keys them by name (a client, a provider) or by value (an origin), so the id is
/// made from that: the same setting has the same id on every server, before and after a restore.
enum AuthSettingID {
  /// A UUID (version 8, RFC 9562) from the SHA-256 of the app, the kind of setting and its key.
  static func make(_ appID: String, _ kind: String, _ key: String) -> String {
    var bytes = Array(SHA256.hash(data: Data("\(appID)\u{0}\(kind)\u{0}\(key)".utf8)).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x80
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(bytes: bytes).uuidString.lowercased()
  }

  static func client(_ appID: String, _ name: String) -> String { make(appID, "oauth-client", name) }
  static func provider(_ appID: String, _ name: String) -> String { make(appID, "oauth-provider", name) }
  static func origin(_ appID: String, _ origin: RedirectOrigin) -> String {
    make(appID, "redirect-origin", "\(origin.kind.rawValue):\(origin.value)")
  }
  static func emailTemplate(_ appID: String) -> String { make(appID, "email-template", "magic-code") }
}

extension RedirectOrigin {
  /// The reference's `service` and `params` for this origin: `generic` with `host[:port]`, or
  /// `custom-scheme` with the scheme.
  var service: (name: String, params: [String]) {
    switch kind {
    case .scheme: ("custom-scheme", [value])
    case .origin: ("generic", [value.components(separatedBy: "://").last ?? value])
    }
  }

  /// The origin the reference's `service` and `params` name, or why there is none.
  ///
  /// A `generic` host matches any scheme on the reference; here an origin has one: `http` for a
  /// loopback host (`localhost`, `127.0.0.1`, `[::1]`, `*.localhost`), `https` for every other.
  /// `vercel` and `netlify` (every deployment of a project) are not matched here: each
  /// deployment's origin is added as `generic`.
  static func fromService(_ service: String, params: [String]) throws(Refusal) -> RedirectOrigin {
    switch service {
    case "generic":
      guard params.count == 1 else { throw Refusal("Host should be the only parameter.") }
      let host = params[0].lowercased()
      let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
      guard !host.isEmpty, host.allSatisfy(allowed.contains) else {
        throw Refusal("The host should be a host name with an optional port, such as app.example.com or localhost:3000, got \(params[0])")
      }
      let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
      let loopback = ["localhost", "127.0.0.1", "[::1]"].contains(name) || name.hasSuffix(".localhost")
      guard let origin = RedirectOrigin.origin("\(loopback ? "http" : "https")://\(host)") else {
        throw Refusal("The host should be a host name with an optional port, such as app.example.com or localhost:3000, got \(params[0])")
      }
      return origin
    case "custom-scheme":
      guard params.count == 1 else { throw Refusal("Custom scheme should have only one parameter.") }
      guard let scheme = RedirectOrigin.scheme(params[0]) else { throw Refusal("The scheme `\(params[0])` is not allowed.") }
      return scheme
    case "vercel", "netlify":
      throw Refusal(
        "instant-local does not match every deployment of a \(service) project: add each deployment's host as a generic origin")
    default:
      throw Refusal("Unrecognized service \(service)")
    }
  }

  /// Why ``fromService(_:params:)`` made no origin.
  struct Refusal: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// `{id, service, params, origin}`: the reference's fields, and the exact origin or scheme matched.
  func json(appID: String) -> JSON {
    let (name, params) = service
    return [
      "id": .string(AuthSettingID.origin(appID, self)), "service": .string(name), "params": .array(params.map(JSON.string)),
      "origin": .string(kind == .origin ? value : "\(value)://"),
    ]
  }
}

extension OAuthClient {
  /// The reference's fields (no secret, ever), and instant-local's `audiences` and
  /// `has_client_secret`.
  func json(appID: String) -> JSON {
    var meta: JSON = .null
    if appleTeamID != nil || appleKeyID != nil {
      meta = ["teamId": appleTeamID.map(JSON.string) ?? .null, "keyId": appleKeyID.map(JSON.string) ?? .null]
    }
    return [
      "id": .string(AuthSettingID.client(appID, name)), "client_name": .string(name), "client_id": .string(clientID),
      "provider_id": .string(AuthSettingID.provider(appID, providerName)),
      "discovery_endpoint": endpoint.map { .string($0.absoluteString) } ?? .null, "meta": meta,
      "redirect_to": .null, "use_shared_credentials": false, "audiences": .array(audiences.map(JSON.string)),
      "has_client_secret": .bool(clientSecret != nil),
    ]
  }
}

extension EmailTemplate {
  /// The fields the reference's `email_templates` route takes.
  func json(appID: String) -> JSON {
    [
      "id": .string(AuthSettingID.emailTemplate(appID)), "email-type": "magic-code", "subject": .string(subject),
      "body": .string(body), "sender-email": senderEmail.map(JSON.string) ?? .null,
      "sender-name": senderName.map(JSON.string) ?? .null,
    ]
  }
}
