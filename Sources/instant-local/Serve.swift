import ArgumentParser
import Foundation
import InstantLocal
import Logging

/// `instant-local serve` (the default command): the server.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve InstantDB's protocol, auth and admin API over HTTP and WebSocket (the default command).")

  @Option(help: "The address to bind.")
  var host = "127.0.0.1"

  @Option(help: "The port to bind (0 picks a free one).")
  var port = 8888

  @Option(name: .customLong("data"), help: "The SQLite file that holds the data.")
  var dataPath = DataFile.defaultPath

  @Flag(help: "Keep the data in memory only (nothing is written to disk).")
  var memory = false

  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
  var logLevel = "info"

  // `.unconditional`, so a negative number reaches `validate()` rather than reading as a flag.
  @Option(parsing: .unconditional, help: "The largest message a session may send, in bytes.")
  var maxMessageBytes = 4 << 20

  @Option(parsing: .unconditional, help: "The most a session's unread messages may take, in bytes; past it the socket is closed.")
  var maxQueuedBytes = 64 << 20

  @Option(
    help: ArgumentHelp(
      "Permission rules every app enforces: an instant.perms.ts or a JSON file, re-read when it changes.",
      discussion: "Without it everything is allowed, as on InstantDB for an app without rules.",
      valueName: "path"))
  var rules: String?

  @Flag(help: "Serve only apps made with `instant-local apps create` (or restored); otherwise an app is made on first use of its id.")
  var strictApps = false

  @Option(parsing: .unconditional, help: "The largest $files upload, in bytes.")
  var maxUploadBytes = 256 << 20

  @Option(
    help: ArgumentHelp(
      "The address clients reach this server at, for $files URLs (behind a proxy); by default the one it listens on.",
      valueName: "url"))
  var publicURL: String?

  @Flag(
    name: .customLong("unverified-id-tokens"),
    help: "DEVELOPMENT ONLY: sign in with any ID token's email, unchecked, when the app has no OAuth client of the token's client_name. Anyone can then sign in as anyone.")
  var unverifiedIDTokens = false

  func validate() throws {
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
    }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    guard maxMessageBytes > 0 else { throw ValidationError("--max-message-bytes must be positive, got \(maxMessageBytes)") }
    guard maxQueuedBytes > 0 else { throw ValidationError("--max-queued-bytes must be positive, got \(maxQueuedBytes)") }
    guard maxUploadBytes > 0 else { throw ValidationError("--max-upload-bytes must be positive, got \(maxUploadBytes)") }
    if let publicURL, URL(string: publicURL).map({ ["http", "https"].contains($0.scheme ?? "") && $0.host != nil }) != true {
      throw ValidationError("--public-url must be an http(s) address such as https://instant.example.com, got \(publicURL)")
    }
  }

  func run() async throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "instant-local")
    var configuration = InstantLocalConfiguration(
      host: host, port: port, storage: memory ? .memory : .file(dataPath), maxMessageBytes: maxMessageBytes,
      maxQueuedBytes: maxQueuedBytes, rulesFile: rules, strictApps: strictApps)
    configuration.maxUploadBytes = maxUploadBytes
    configuration.publicURL = publicURL.flatMap { URL(string: $0) }
    configuration.unverifiedIDTokens = unverifiedIDTokens
    let server = try InstantLocalServer(configuration: configuration, logger: logger)
    let host = self.host
    let storage = memory ? "in memory" : dataPath
    let rulesLine =
      (rules.map { "  Rules:     \($0) (re-read when it changes)\n" } ?? "")
      + (unverifiedIDTokens ? "  WARNING:   ID tokens are not verified: anyone can sign in as anyone (development only)\n" : "")
    try await server.run { port in
      let banner = """
        instant-local listening (data: \(storage))
          WebSocket: ws://\(host):\(port)/runtime/session
          HTTP:      http://\(host):\(port)
        \(rulesLine)
        """
      FileHandle.standardOutput.write(Data(banner.utf8))
    }
  }
}
