import ArgumentParser
import Foundation
import InstantChaos

/// `instant-chaos`: proves no write is lost or duplicated under faults (docs/reliability.md).
@main
struct InstantChaosCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-chaos",
    abstract: "Random writes from several client processes against instant-local, with random faults; every replica must equal a model of the writes.",
    subcommands: [Run.self, Client.self, Server.self],
    defaultSubcommand: Run.self)

  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A chaos run (the default).")

    @Option(help: "How many writes in all.") var writes = 1000
    @Option(help: "How many client processes.") var clients = 3
    @Option(help: "The seed of the writes and the fault schedule.") var seed: UInt64 = 1
    @Option(help: "One random fault in this many writes on average (besides one of each kind).")
    var faultEvery = 40
    @Option(help: "Each client waits 0…2×this many milliseconds between two writes.") var pause = 4
    @Option(help: "How long each client may take to drain its writes at the end, in seconds.")
    var drainSeconds = 600
    @Option(help: "Where the data files go (kept when the run fails).") var directory: String?
    @Flag(help: "Show progress and the children's logs.") var verbose = false

    func run() async throws {
      var chaos = ChaosRun(
        writes: writes, clients: clients, seed: seed, executable: ChaosRun.siblingExecutable)
      chaos.faultEvery = faultEvery
      chaos.pauseMilliseconds = pause
      chaos.drainSeconds = drainSeconds
      chaos.directory = directory.map { URL(fileURLWithPath: $0) }
      chaos.quiet = !verbose
      if verbose {
        chaos.log = { line in
          let at = String(format: "%.3f", Date().timeIntervalSince1970)
          FileHandle.standardError.write(Data("[\(at)] \(line)\n".utf8))
        }
      }
      let report = try await chaos.run()
      print(report)
      if !report.passed { throw ExitCode.failure }
    }
  }

  struct Client: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A client process of a run (driven by the run).")
    @Option var port: Int
    @Option var database: String

    func run() async throws {
      await ChaosClientWorker.run(port: port, database: URL(fileURLWithPath: database))
    }
  }

  struct Server: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The server process of a run (driven by the run).")
    @Option var data: String

    func run() async throws {
      try await ChaosServerWorker.run(data: data)
    }
  }
}
