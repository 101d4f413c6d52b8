import Foundation
import InstantBackup
import InstantCore
@testable import InstantLocal
import InstantLocalTesting
internal import OrderedCollections
import Testing
import TestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `/dash` sign-in settings routes (docs/admin.md, "Sign-in settings"): providers, clients,
/// redirect origins and the magic-code email, with the app's admin token, over real HTTP.
@Suite("Sign-in settings through the admin API")
struct AuthSettingsTests {
  /// An app's `/dash` routes on a running server, with its admin token.
  struct Dash {
    let base: URL
    let appID: String
    var token: String?

    init(_ server: InstantLocalServer, _ app: AppCatalog.CreatedApp) async throws {
      base = try #require(await server.baseURL)
      appID = app.id
      token = app.adminToken
    }

    func call(_ method: String, _ path: String, _ body: JSON? = nil) async throws -> (status: Int, body: JSON, text: String) {
      var request = URLRequest(url: base.appendingPathComponent("dash/apps/\(appID)/\(path)"))
      request.httpMethod = method
      if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "authorization") }
      if let body {
        request.httpBody = Data(body.serialized().utf8)
        request.setValue("application/json", forHTTPHeaderField: "content-type")
      }
      let (data, response) = try await URLSession.shared.data(for: request)
      let text = String(decoding: data, as: UTF8.self)
      return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSON.parse(text), text)
    }
  }

  @Test("Providers and clients: made, listed, changed and removed; the secret is kept and never shown; mistakes are named")
  func providersAndClients() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Settings")
      let dash = try await Dash(server, app)
      let empty = try await dash.call("GET", "auth")
      #expect(empty.status == 200)
      #expect(empty.body["oauth_service_providers"] == [])
      #expect(empty.body["oauth_clients"] == [])
      #expect(empty.body["authorized_redirect_origins"] == .null, "null when there are none, as the reference's")

      let google = try await dash.call("POST", "oauth_service_providers", ["provider_name": "google"])
      #expect(google.status == 200, "\(google.text)")
      let googleID = try #require(google.body["provider"]?["id"]?.stringValue)
      #expect(UUID(uuidString: googleID) != nil)
      #expect(try await dash.call("POST", "oauth_service_providers", ["provider_name": "google"]).body["type"] == "record-not-unique")

      let made = try await dash.call("POST", "oauth_clients", [
        "provider_id": .string(googleID), "client_name": "google-web", "client_id": "web.apps.googleusercontent.com",
        "client_secret": "s3cret-value", "audiences": ["ios.apps.googleusercontent.com"],
      ])
      #expect(made.status == 200, "\(made.text)")
      #expect(!made.text.contains("s3cret-value"), "the secret is never answered")
      let client = try #require(made.body["client"])
      #expect(client["provider_id"] == .string(googleID))
      #expect(client["has_client_secret"] == true)
      #expect(client["discovery_endpoint"] == "https://accounts.google.com/.well-known/openid-configuration")
      let clientID = try #require(client["id"]?.stringValue)
      // The catalog a sign-in reads has it, secret and all.
      let stored = try #require(try server.apps.oauthClients(appID: app.id).first)
      #expect(stored == OAuthClient(
        name: "google-web", provider: .google, clientID: "web.apps.googleusercontent.com",
        audiences: ["ios.apps.googleusercontent.com"], clientSecret: "s3cret-value"))

      let listed = try await dash.call("GET", "auth")
      #expect(!listed.text.contains("s3cret-value"))
      #expect(listed.body["oauth_clients"]?.arrayValue?.map { $0["id"] } == [.string(clientID)])
      #expect(listed.body["oauth_service_providers"]?.arrayValue?.map { $0["provider_name"] } == ["google"])

      // A second client of the same name is refused; the first is unchanged.
      let again = try await dash.call("POST", "oauth_clients", [
        "provider_id": .string(googleID), "client_name": "google-web", "client_id": "other",
      ])
      #expect(again.status == 400)
      #expect(again.body["type"] == "record-not-unique")
      #expect(try server.apps.oauthClients(appID: app.id).first?.clientID == "web.apps.googleusercontent.com")

      // Changes: a new client id, the secret cleared by null.
      let changed = try await dash.call("POST", "oauth_clients/\(clientID)", ["client_id": "new-id", "client_secret": .null])
      #expect(changed.status == 200, "\(changed.text)")
      #expect(changed.body["client"]?["has_client_secret"] == false)
      let updated = try #require(try server.apps.oauthClients(appID: app.id).first)
      #expect(updated.clientID == "new-id")
      #expect(updated.clientSecret == nil)
      #expect(updated.audiences == ["ios.apps.googleusercontent.com"], "what the body leaves out stays")

      // An OpenID Connect provider of its own name needs its discovery document, https.
      let clerk = try await dash.call("POST", "oauth_service_providers", ["provider_name": "clerk"])
      let clerkID = try #require(clerk.body["provider"]?["id"]?.stringValue)
      let noDocument = try await dash.call("POST", "oauth_clients", [
        "provider_id": .string(clerkID), "client_name": "clerk", "client_id": "c", "client_secret": "hidden-secret",
      ])
      #expect(noDocument.status == 400)
      #expect(noDocument.body["type"] == "validation-failed")
      #expect(noDocument.body["message"]?.stringValue?.contains("discovery endpoint") == true, "\(noDocument.text)")
      #expect(!noDocument.text.contains("hidden-secret"), "an error does not repeat the secret: \(noDocument.text)")
      let plainHTTP = try await dash.call("POST", "oauth_clients", [
        "provider_id": .string(clerkID), "client_name": "clerk", "client_id": "c",
        "discovery_endpoint": "http://clerk.example.com/.well-known/openid-configuration",
      ])
      #expect(plainHTTP.status == 400)
      #expect(plainHTTP.body["message"]?.stringValue?.contains("must be https") == true, "\(plainHTTP.text)")
      let oidc = try await dash.call("POST", "oauth_clients", [
        "provider_id": .string(clerkID), "client_name": "clerk", "client_id": "c",
        "discovery_endpoint": "https://clerk.example.com/.well-known/openid-configuration",
      ])
      #expect(oidc.status == 200, "\(oidc.text)")
      #expect(oidc.body["client"]?["provider_id"] == .string(clerkID), "the client stays under its provider's name")
      #expect(try server.apps.oauthClients(appID: app.id).first { $0.name == "clerk" }?.provider == .oidc)

      // Mistakes by name: an unknown provider, a missing name, shared credentials, GitHub.
      #expect(try await dash.call("POST", "oauth_clients", ["provider_id": .string(UUID().uuidString), "client_name": "x"]).body["type"] == "record-not-found")
      #expect(try await dash.call("POST", "oauth_clients", ["provider_id": .string(googleID)]).body["type"] == "param-missing")
      let shared = try await dash.call("POST", "oauth_clients", [
        "provider_id": .string(googleID), "client_name": "shared", "use_shared_credentials": true,
      ])
      #expect(shared.body["message"]?.stringValue?.contains("no shared credentials") == true)
      #expect(try await dash.call("POST", "oauth_service_providers", ["provider_name": "github"]).status == 400)

      let removed = try await dash.call("DELETE", "oauth_clients/\(clientID)")
      #expect(removed.status == 200)
      #expect(removed.body["client"]?["client_name"] == "google-web")
      #expect(try server.apps.oauthClients(appID: app.id).map(\.name) == ["clerk"])
      #expect(try await dash.call("DELETE", "oauth_clients/\(clientID)").body["type"] == "record-not-found")
    }
  }

  @Test("Redirect origins: a generic host is https (http on loopback), a scheme is a scheme; what cannot match is refused and says why")
  func redirectOrigins() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Origins")
      let dash = try await Dash(server, app)
      for (service, params, origin) in [
        ("generic", ["App.Example.com"], "https://app.example.com"), ("generic", ["localhost:3000"], "http://localhost:3000"),
        ("generic", ["example.org:8443"], "https://example.org:8443"), ("custom-scheme", ["myapp"], "myapp://"),
      ] {
        let made = try await dash.call("POST", "authorized_redirect_origins", ["service": .string(service), "params": .array(params.map(JSON.string))])
        #expect(made.status == 200, "\(made.text)")
        #expect(made.body["origin"]?["origin"] == .string(origin))
        #expect(made.body["origin"]?["service"] == .string(service))
      }
      let kept = try server.apps.redirectOrigins(appID: app.id)
      #expect(Set(kept.map(\.value)) == ["https://app.example.com", "http://localhost:3000", "https://example.org:8443", "myapp"])
      // The web flow's check reads the same list.
      #expect(RedirectOrigin.allows(URL(string: "https://app.example.com/signed-in")!, in: kept))
      #expect(!RedirectOrigin.allows(URL(string: "http://app.example.com/signed-in")!, in: kept), "https only off loopback")

      for (service, params, why) in [
        ("vercel", ["vercel.app", "proj"], "each deployment's host"), ("netlify", ["site"], "each deployment's host"),
        ("custom-scheme", ["https"], "is not allowed"), ("generic", ["evil.com/path"], "host name"),
        ("generic", ["user@evil.com"], "host name"), ("generic", ["a.com", "b.com"], "only parameter"), ("ftp", ["x"], "Unrecognized service"),
      ] {
        let refused = try await dash.call("POST", "authorized_redirect_origins", ["service": .string(service), "params": .array(params.map(JSON.string))])
        #expect(refused.status == 400, "\(service) \(params)")
        #expect(refused.body["type"] == "validation-failed")
        #expect(refused.body["message"]?.stringValue?.contains(why) == true, "\(refused.text)")
      }
      #expect(try server.apps.redirectOrigins(appID: app.id).count == 4, "nothing refused was kept")

      let listed = try await dash.call("GET", "auth")
      let entries = try #require(listed.body["authorized_redirect_origins"]?.arrayValue)
      let localhost = try #require(entries.first { $0["origin"] == "http://localhost:3000" })
      #expect(localhost["params"] == ["localhost:3000"])
      let id = try #require(localhost["id"]?.stringValue)
      #expect(try await dash.call("DELETE", "authorized_redirect_origins/\(id)").status == 200)
      #expect(try await dash.call("DELETE", "authorized_redirect_origins/\(id)").body["type"] == "record-not-found")
      #expect(try server.apps.redirectOrigins(appID: app.id).count == 3)
    }
  }

  @Test("The magic-code email: set with {code}, shown, removed by its id; another id removes nothing")
  func emailTemplate() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Mail")
      let dash = try await Dash(server, app)
      let noCode = try await dash.call("POST", "email_templates", ["email-type": "magic-code", "subject": "Hi", "body": "<p>{code}</p>"])
      #expect(noCode.status == 400)
      #expect(noCode.body["message"]?.stringValue?.contains("Subject does not contain template variable: '{code}'") == true)
      #expect(try await dash.call("POST", "email_templates", ["email-type": "welcome", "subject": "{code}", "body": "{code}"]).status == 400)
      let set = try await dash.call("POST", "email_templates", [
        "email-type": "magic-code", "subject": "{code} for {app_title}", "body": "<p>{code}</p>", "sender-name": "Team",
      ])
      #expect(set.status == 200, "\(set.text)")
      let id = try #require(set.body["id"]?.stringValue)
      #expect(try server.apps.emailTemplate(appID: app.id) == EmailTemplate(subject: "{code} for {app_title}", body: "<p>{code}</p>", senderName: "Team"))
      #expect(try await dash.call("GET", "auth").body["email_templates"]?[0]?["subject"] == "{code} for {app_title}")
      #expect(try await dash.call("DELETE", "email_templates/\(UUID().uuidString)").body == [:])
      #expect(try server.apps.emailTemplate(appID: app.id) != nil, "another id removes nothing")
      #expect(try await dash.call("DELETE", "email_templates/\(id)").status == 200)
      #expect(try server.apps.emailTemplate(appID: app.id) == nil)
    }
  }

  @Test("Every route refuses no token or a malformed one (400), an unknown one (401) and another app's (400 admin-token-mismatch), and changes nothing")
  func tokens() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Mine")
      let other = try server.apps.create(title: "Theirs")
      var dash = try await Dash(server, app)
      let anyID = UUID().uuidString.lowercased()
      let routes: [(String, String, JSON?)] = [
        ("GET", "auth", nil), ("POST", "authorized_redirect_origins", ["service": "generic", "params": ["evil.example"]]),
        ("DELETE", "authorized_redirect_origins/\(anyID)", nil), ("POST", "oauth_service_providers", ["provider_name": "google"]),
        ("POST", "oauth_clients", ["provider_id": .string(anyID), "client_name": "x", "client_id": "y"]),
        ("POST", "oauth_clients/\(anyID)", ["client_id": "y"]), ("DELETE", "oauth_clients/\(anyID)", nil),
        ("POST", "email_templates", ["email-type": "magic-code", "subject": "{code}", "body": "{code}"]),
        ("DELETE", "email_templates/\(anyID)", nil),
      ]
      let cases: [(String?, Int, String)] = [
        (nil, 400, "param-missing"), ("not-a-token", 400, "param-malformed"), (UUID().uuidString, 401, "record-not-found"),
        (other.adminToken, 400, "validation-failed"),
      ]
      for (token, status, type) in cases {
        dash.token = token
        for (method, path, body) in routes {
          let answer = try await dash.call(method, path, body)
          #expect(answer.status == status, "\(method) \(path) with \(token == nil ? "no token" : "a wrong token"): \(answer.text)")
          #expect(answer.body["type"] == .string(type))
          if token == other.adminToken { #expect(answer.body["hint"]?["reason"] == "admin-token-mismatch") }
        }
      }
      #expect(try server.apps.redirectOrigins(appID: app.id).isEmpty)
      #expect(try server.apps.oauthProviders(appID: app.id).isEmpty)
      #expect(try server.apps.emailTemplate(appID: app.id) == nil)
    }
  }

  @Test("A backup carries the redirect origins as InstantDB's (service, params); a restore keeps them and names what it cannot")
  func backupCarriesOrigins() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Carried")
      for origin in [RedirectOrigin.origin("https://app.example.com")!, .origin("http://localhost:3000")!, .scheme("myapp")!] {
        try server.apps.addRedirectOrigin(appID: app.id, origin)
      }
      let archive = FileManager.default.temporaryDirectory.appendingPathComponent("origins-\(UUID().uuidString).zip")
      defer { try? FileManager.default.removeItem(at: archive) }
      try server.apps.backup(appID: app.id, to: archive)
      let plan = try BackupReader(systemAttrs: SystemCatalog.attrs).read(archive)
      let carried = try #require(plan.config["authorizedRedirectOrigins"]?.arrayValue)
      #expect(Set(carried.map(\.canonicalString)) == Set([
        ["service": "generic", "params": ["app.example.com"]], ["service": "generic", "params": ["localhost:3000"]],
        ["service": "custom-scheme", "params": ["myapp"]],
      ].map { (json: JSON) in json.canonicalString }))
      let restored = try server.apps.restore(from: archive, appID: UUID().uuidString.lowercased(), title: "Restored")
      #expect(Set(try server.apps.redirectOrigins(appID: restored.app.id)) == Set(try server.apps.redirectOrigins(appID: app.id)))
      #expect(restored.skippedRedirectOrigins.isEmpty)

      // A backup from InstantDB with a Vercel project: restored without it, and the report says why.
      var writer = BackupWriter(
        attrs: SystemCatalog.attrs, triples: [], rules: nil, title: "From Instant", appID: UUID().uuidString.lowercased(),
        backupAt: Date(), blobURL: { _ in nil })
      writer.authorizedRedirectOrigins = [
        ["service": "vercel", "params": ["vercel.app", "proj"]], ["service": "generic", "params": ["shop.example.com"]],
      ]
      let instant = FileManager.default.temporaryDirectory.appendingPathComponent("instant-\(UUID().uuidString).zip")
      defer { try? FileManager.default.removeItem(at: instant) }
      _ = try writer.write(to: instant)
      let fromInstant = try server.apps.restore(from: instant)
      #expect(fromInstant.redirectOrigins.map(\.value) == ["https://shop.example.com"])
      #expect(fromInstant.skippedRedirectOrigins.count == 1)
      #expect(fromInstant.skippedRedirectOrigins.first?.contains("vercel vercel.app proj") == true)
    }
  }

  @Test("Ids are UUIDs made from the app and the setting: stable, and different across apps and settings")
  func ids() {
    let a = AuthSettingID.client("app-a", "google-web")
    #expect(a == AuthSettingID.client("app-a", "google-web"))
    #expect(a != AuthSettingID.client("app-b", "google-web"))
    #expect(a != AuthSettingID.provider("app-a", "google-web"))
    #expect(UUID(uuidString: a) != nil)
    #expect(Array(a)[14] == "8", "version 8: \(a)")
    #expect(a == a.lowercased())
  }
}
