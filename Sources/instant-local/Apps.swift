import ArgumentParser
import Foundation
import InstantLocal

/// `instant-local apps`: the apps of a data file and their admin tokens.
struct Apps: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Create and list apps, rotate their admin tokens, and configure their OAuth clients and magic-code email.",
    subcommands: [Create.self, List.self, RotateToken.self, OAuthClients.self, RedirectOrigins.self, EmailTemplates.self])

  struct DataOption: ParsableArguments {
    @Option(name: .customLong("data"), help: "The SQLite file that holds the data.")
    var path = DataFile.defaultPath

    func catalog() throws -> AppCatalog { try AppCatalog(dataFile: path) }
  }

  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Make an app; prints its id and admin token (shown only now: the data file keeps its hash).")

    @Option(help: "The app's title.")
    var title: String

    @OptionGroup var data: DataOption

    func run() throws {
      let app = try data.catalog().create(title: title)
      print("""
        app id:      \(app.id)
        admin token: \(app.adminToken)
        Keep the admin token secret: it bypasses the app's rules. It is not shown again; \
        `instant-local apps rotate-token --app \(app.id)` makes a new one.
        """)
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the apps in the data file.")

    @OptionGroup var data: DataOption

    func run() throws {
      let apps = try data.catalog().list()
      guard !apps.isEmpty else { return print("no apps in \(data.path)") }
      let formatter = ISO8601DateFormatter()
      for app in apps {
        let token = app.hasAdminToken ? "admin token" : "no admin token"
        print("\(app.id)  \(formatter.string(from: app.createdAt))  \(token)  \(app.title)")
      }
    }
  }

  struct RotateToken: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Give an app a new admin token; the old one stops working at once.")

    @Option(help: "The app's id.")
    var app: String

    @OptionGroup var data: DataOption

    func run() throws {
      let token = try data.catalog().rotateToken(appID: app)
      print("admin token: \(token)")
    }
  }

  struct OAuthClients: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "oauth-clients",
      abstract: "The OAuth clients an app's users sign in through (Sign in with Apple, Google, any OpenID provider).",
      subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand {
      static let configuration = CommandConfiguration(
        abstract: "Add a client (or replace the one with its name). Its tokens must be signed by the provider and name the client id.")

      @Option(help: "The app's id.") var app: String
      @Option(help: "The client_name apps sign in with (signInWithIdToken(clientName:)).") var name: String
      @Option(help: "google, apple or oidc.") var provider: String
      @Option(help: "The client id the provider gave the app (an ID token's aud).") var clientId: String
      @Option(help: "The provider's OpenID discovery document (required for oidc; google and apple have theirs).")
      var discoveryEndpoint: String?
      @Option(help: "Another aud to accept: an iOS bundle id, or a Google iOS or Android client id (repeatable).")
      var audience: [String] = []
      @Option(help: ArgumentHelp(
        "A file holding the client secret, for sign-in in a browser (the OAuth web flow); for apple, the private key (.p8).",
        discussion: "Without it the client signs in with ID tokens only. The secret is kept in the data file."))
      var clientSecretFile: String?
      @Option(help: "apple with --client-secret-file: the team id the key belongs to.") var appleTeamId: String?
      @Option(help: "apple with --client-secret-file: the key's id.") var appleKeyId: String?

      @OptionGroup var data: DataOption

      func run() throws {
        guard let provider = OAuthClient.Provider(rawValue: provider) else {
          throw ValidationError("--provider is google, apple or oidc, not \(provider)")
        }
        var endpoint: URL?
        if let discoveryEndpoint {
          guard let url = URL(string: discoveryEndpoint), url.scheme != nil else {
            throw ValidationError("--discovery-endpoint is not a URL: \(discoveryEndpoint)")
          }
          endpoint = url
        }
        var secret: String?
        if let clientSecretFile {
          guard let text = try? String(contentsOfFile: clientSecretFile, encoding: .utf8) else {
            throw ValidationError("--client-secret-file: cannot read \(clientSecretFile)")
          }
          secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else if appleTeamId != nil || appleKeyId != nil {
          throw ValidationError("--apple-team-id and --apple-key-id go with --client-secret-file (the key)")
        }
        let client = OAuthClient(
          name: name, provider: provider, clientID: clientId, discoveryEndpoint: endpoint, audiences: audience, clientSecret: secret,
          appleTeamID: appleTeamId, appleKeyID: appleKeyId)
        try data.catalog().addOAuthClient(appID: app, client)
        let web = secret == nil ? "ID tokens only" : "ID tokens and the web flow"
        print("app \(app): OAuth client \(name) (\(provider.rawValue), client id \(clientId); \(web))")
      }
    }

    struct List: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "List an app's OAuth clients.")
      @Option(help: "The app's id.") var app: String
      @OptionGroup var data: DataOption

      func run() throws {
        let clients = try data.catalog().oauthClients(appID: app)
        guard !clients.isEmpty else { return print("app \(app) has no OAuth clients") }
        for client in clients {
          let audiences = client.audiences.isEmpty ? "" : "  also: \(client.audiences.joined(separator: ", "))"
          let web = client.clientSecret == nil ? "" : "  web flow"
          print("\(client.name)  \(client.provider.rawValue)  \(client.clientID)  \(client.endpoint?.absoluteString ?? "")\(audiences)\(web)")
        }
      }
    }

    struct Remove: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "Remove an app's OAuth client.")
      @Option(help: "The app's id.") var app: String
      @Option(help: "The client's name.") var name: String
      @OptionGroup var data: DataOption

      func run() throws {
        try data.catalog().removeOAuthClient(appID: app, name: name)
        print("app \(app): OAuth client \(name) removed")
      }
    }
  }

  struct RedirectOrigins: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "redirect-origins",
      abstract: "Where an app's OAuth web sign-in may return to: web origins and native app URL schemes.",
      subcommands: [Add.self, List.self, Remove.self])

    struct Which: ParsableArguments {
      @Option(help: "The app's id.") var app: String
      @Option(help: "A web origin such as https://app.example.com or http://localhost:3000.") var origin: String?
      @Option(help: "A native app's URL scheme such as myapp (for myapp://…).") var scheme: String?

      func redirectOrigin() throws -> RedirectOrigin {
        switch (origin, scheme) {
        case let (origin?, nil):
          guard let parsed = RedirectOrigin.origin(origin) else {
            throw ValidationError("--origin is an http(s) origin with nothing after it, such as https://app.example.com, not \(origin)")
          }
          return parsed
        case let (nil, scheme?):
          guard let parsed = RedirectOrigin.scheme(scheme) else {
            throw ValidationError("--scheme is an app's own URL scheme (letters, digits, + - .; not http, https, file, javascript…), not \(scheme)")
          }
          return parsed
        default: throw ValidationError("give one of --origin and --scheme")
        }
      }
    }

    struct Add: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "Let the app's web sign-in return to an origin or scheme.")
      @OptionGroup var which: Which
      @OptionGroup var data: DataOption

      func run() throws {
        let origin = try which.redirectOrigin()
        try data.catalog().addRedirectOrigin(appID: which.app, origin)
        print("app \(which.app): web sign-in may return to \(origin.value)\(origin.kind == .scheme ? "://" : "")")
      }
    }

    struct List: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "List an app's redirect origins.")
      @Option(help: "The app's id.") var app: String
      @OptionGroup var data: DataOption

      func run() throws {
        let origins = try data.catalog().redirectOrigins(appID: app)
        guard !origins.isEmpty else { return print("app \(app) has no redirect origins: its web sign-in is closed") }
        for origin in origins { print("\(origin.kind.rawValue)  \(origin.value)") }
      }
    }

    struct Remove: ParsableCommand {
      static let configuration = CommandConfiguration(abstract: "Remove one of an app's redirect origins.")
      @OptionGroup var which: Which
      @OptionGroup var data: DataOption

      func run() throws {
        let origin = try which.redirectOrigin()
        try data.catalog().removeRedirectOrigin(appID: which.app, origin)
        print("app \(which.app): redirect origin \(origin.value) removed")
      }
    }
  }
}
