import ArgumentParser

/// `instant-local`: an InstantDB-compatible server in one binary, on one SQLite file.
@main
struct InstantLocalCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-local",
    abstract: "An InstantDB-compatible server (WebSocket protocol, auth, admin API) backed by SQLite.",
    subcommands: [Serve.self, Apps.self, Backup.self, Restore.self],
    defaultSubcommand: Serve.self)
}

/// Where the data lives unless `--data` says otherwise.
enum DataFile {
  static let defaultPath = ".instant/local.sqlite"
}
