import ArgumentParser
import Foundation
import InstantLocal

/// `instant-local apps`: the apps of a data file and their admin tokens.
struct Apps: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Create and list apps, rotate their admin tokens, and configure their OAuth clients and magic-code email.",
    subcommands: [Create.self, List.self, RotateToken.self, OAuthClients.self, EmailTemplates.self])

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
      abstract: "The OAuth clients an app's users sign in through with an ID token (Sign in with Apple, Google).",
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
        let client = OAuthClient(name: name, provider: provider, clientID: clientId, discoveryEndpoint: endpoint, audiences: audience)
        try data.catalog().addOAuthClient(appID: app, client)
        print("app \(app): OAuth client \(name) (\(provider.rawValue), client id \(clientId))")
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
          print("\(client.name)  \(client.provider.rawValue)  \(client.clientID)  \(client.endpoint?.absoluteString ?? "")\(audiences)")
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
}
