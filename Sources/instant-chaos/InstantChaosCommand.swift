import ArgumentParser
import Foundation
import InstantChaos
import Logging

extension KeysStress.Scenario: ExpressibleByArgument {}

/// `instant-chaos`: proves no write is lost or duplicated under faults (docs/reliability.md).
@main
struct InstantChaosCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-chaos",
    abstract: "Random writes from several client processes against instant-local, with random faults; every replica must equal a model of the writes.",
    subcommands: [Run.self, Keys.self, Client.self, Server.self],
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

  struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Another device's writes while a @Shared key's withLock edits run: the edits must destroy nothing (issue 19).",
      discussion: """
        Prints one line per run, with the writer's rows the edits deleted, wrote back, re-created or \
        moved back (each must be 0), the editor's own edits the server does not hold, and how many \
        times a result found an edit in the key's reference. Exits non-zero when any run fails.
        """)

    @Option(help: "todos, nested or window.") var scenario = KeysStress.Scenario.todos
    @Option(help: "Runs seeds 1 through this.") var seeds: UInt64 = 1
    @Option(help: "The first seed.") var seed: UInt64 = 1
    @Option(help: "Milliseconds between two edits (0.5–1.5× this), comma-separated for several runs.")
    var intervals = "20"
    @Option(help: "How long each run's writes and edits go on, in seconds.") var seconds = 20.0
    @Flag(help: "Edit on the main actor instead of a thread of its own.") var mainActor = false
    @Flag(help: "Keep the main actor busy (1–30 ms at a time) while the writer's results land.") var busyMain = false
    @Flag(help: "The deliberately broken key: values set plainly, edits diffed against the value given last.")
    var naive = false
    @Flag(help: "Show the clients' log (refused writes, edits not written).") var verbose = false

    func run() async throws {
      if !verbose {
        // The clients' refused writes (an edit of a row the writer deleted) are expected here.
        setenv("INSTANTDB_LOG_LEVEL", "off", 1)
        LoggingSystem.bootstrap { label in
          var handler = StreamLogHandler.standardError(label: label)
          handler.logLevel = .critical
          return handler
        }
      }
      let intervals = try self.intervals.split(separator: ",").map { part in
        guard let value = Int(part.trimmingCharacters(in: .whitespaces)), value > 0 else {
          throw ValidationError("--intervals takes positive whole milliseconds, like 20,50,200; got '\(part)'")
        }
        return value
      }
      var failed = 0
      for interval in intervals {
        for seed in seed..<(seed + seeds) {
          var stress = KeysStress()
          stress.scenario = scenario
          stress.seed = seed
          stress.intervalMilliseconds = interval
          stress.seconds = seconds
          stress.naive = naive
          stress.onMainActor = mainActor
          stress.busyMainActor = busyMain
          let report = try await stress.run()
          print(report)
          if !report.passed { failed += 1 }
        }
      }
      if failed > 0 { throw ExitCode.failure }
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
