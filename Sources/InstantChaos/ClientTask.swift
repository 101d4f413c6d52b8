import Foundation
import InstantCore
import NIOConcurrencyHelpers
import NIOCore

/// One client of a chaos run: its process (restarted after each `kill -9`), its writes in order,
/// the faults scheduled before them, and the model of the writes it reported enqueued.
struct ClientTask: Sendable {
  var index: Int
  var count: Int
  var faults: [Int: [ChaosFault]]
  var rng: SplitMix
  var proxy: ChaosProxy
  var server: ChaosServer
  var clients: ChaosClients
  var chaos: ChaosRun
  var directory: URL
  var report: NIOLockedValueBox<ChaosReport>

  func run() async throws -> ChaosClientModel {
    var rng = self.rng
    var model = ChaosClientModel(client: index)
    var child = try await start()
    var offlineFor = 0
    for n in 0..<count {
      for fault in faults[n] ?? [] {
        switch fault {
        case .drop:
          proxy.drop()
        case .stall:
          proxy.stall(for: .milliseconds(Int64.random(in: 200...1500, using: &rng)))
        case .halfClose:
          proxy.halfClose(towardsClient: rng.chance(0.5))
        case .serverKill:
          let downtime = Duration.milliseconds(Int.random(in: 0...800, using: &rng))
          guard try await server.killAndRestart(downtime: downtime) else { continue }
        case .clientKill:
          await child.kill9()
          child = try await start()
          offlineFor = 0
        case .offline:
          try await expectOK(child.request(#"{"offline": true}"#))
          offlineFor = Int.random(in: 5...25, using: &rng)
        }
        report.withLockedValue { $0.faults[fault, default: 0] += 1 }
        chaos.log("client \(index) write \(n): \(fault.rawValue)")
      }
      if offlineFor > 0 {
        offlineFor -= 1
        if offlineFor == 0 { try await expectOK(child.request(#"{"offline": false}"#)) }
      }
      if chaos.pauseMilliseconds > 0 {
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...2 * chaos.pauseMilliseconds, using: &rng)))
      }
      let (ops, after) = model.nextWrite(using: &rng)
      let command: JSON = ["write": .number(Double(n)), "ops": .array(ops.map(\.wire))]
      let answer = try JSON.parse(try await child.request(command.serialized()))
      guard answer["enqueued"] == .number(Double(n)) else {
        throw ChildProcess.Failure(description: "client \(index): write \(n) not enqueued: \(answer.serialized())")
      }
      model = after
      chaos.log(
        "client \(index) write \(n) enqueued as \(answer["id"]?.stringValue ?? "?"): \(JSON.array(ops.map(\.wire)).serialized())")
      report.withLockedValue {
        $0.writes += 1
        $0.ops += ops.count
        $0.lookups += ops.filter(\.usesLookup).count
        $0.targetLookups += ops.filter { $0.usesLookup && $0.entity.stringValue != nil }.count
        $0.sharedWrites += ops.filter(\.writesShared).count
      }
    }
    return model
  }

  private func start() async throws -> ChildProcess {
    let database = directory.appendingPathComponent("client-\(index).sqlite")
    return try await Self.launch(
      index: index, executable: chaos.executable, port: proxy.port, database: database, quiet: chaos.quiet
    ) { clients.set(index, $0) }
  }

  /// A client process on `database`, once it says it is ready; `started` gets it as soon as it
  /// runs, so that it is stopped even if it never gets ready.
  static func launch(
    index: Int, executable: URL, port: Int, database: URL, quiet: Bool, started: (ChildProcess) -> Void = { _ in }
  ) async throws -> ChildProcess {
    let child = try ChildProcess(
      name: "client \(index)", executable: executable,
      arguments: ["client", "--port", String(port), "--database", database.path], quiet: quiet)
    started(child)
    let line = try await child.nextLine(timeout: .seconds(60))
    guard (try? JSON.parse(line))?["ready"] == true else {
      throw ChildProcess.Failure(description: "client \(index): unexpected first line \(line)")
    }
    return child
  }

  private func expectOK(_ line: String) throws {
    guard (try? JSON.parse(line))?["ok"] == true else {
      throw ChildProcess.Failure(description: "client \(index): unexpected answer \(line)")
    }
  }
}
