import ArgumentParser
import Foundation
import InstantLocal

/// `instant-local apps`: the apps of a data file and their admin tokens.
struct Apps: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Create and list apps, and rotate their admin tokens.",
    subcommands: [Create.self, List.self, RotateToken.self])

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
}
