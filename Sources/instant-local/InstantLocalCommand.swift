import ArgumentParser
import InstantLocal

/// `instant-local`: an InstantDB-compatible server in one binary, on one SQLite file.
@main
struct InstantLocalCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-local",
    abstract: "An InstantDB-compatible server (WebSocket protocol, auth, admin API) backed by SQLite.",
    subcommands: [Serve.self, Apps.self, Backup.self, Restore.self],
    defaultSubcommand: Serve.self)

  /// Reads `serve --config FILE` into the arguments before they are parsed (``ConfigFile``).
  static func main() async {
    do {
      await main(try ConfigFile.expand(Array(CommandLine.arguments.dropFirst())))
    } catch {
      exit(withError: error)
    }
  }
}

/// Where the data lives unless `--data` says otherwise.
enum DataFile {
  static let defaultPath = ".instant/local.sqlite"
}
