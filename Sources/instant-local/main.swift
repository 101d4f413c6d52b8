import ArgumentParser
import Foundation
import InstantLocal
import Logging

/// `instant-local`: a local InstantDB-compatible server on loopback with SQLite storage.
@main
struct InstantLocalCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-local",
    abstract: "A local InstantDB-compatible server (WebSocket protocol, auth, schema pull) backed by SQLite.")

  @Option(help: "The address to bind.")
  var host = "127.0.0.1"

  @Option(help: "The port to bind (0 picks a free one).")
  var port = 8888

  @Option(name: .customLong("data"), help: "The SQLite file that holds the data.")
  var dataPath = ".instant/local.sqlite"

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

  func validate() throws {
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
    }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    guard maxMessageBytes > 0 else { throw ValidationError("--max-message-bytes must be positive, got \(maxMessageBytes)") }
    guard maxQueuedBytes > 0 else { throw ValidationError("--max-queued-bytes must be positive, got \(maxQueuedBytes)") }
  }

  func run() async throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "instant-local")
    let server = try InstantLocalServer(
      configuration: .init(
        host: host, port: port, storage: memory ? .memory : .file(dataPath), maxMessageBytes: maxMessageBytes,
        maxQueuedBytes: maxQueuedBytes, rulesFile: rules),
      logger: logger)
    let host = self.host
    let storage = memory ? "in memory" : dataPath
    let rulesLine = rules.map { "  Rules:     \($0) (re-read when it changes)\n" } ?? ""
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
