package import Foundation
import InstantCore
import InstantDB
import Logging
import NIOConcurrencyHelpers
import NIOCore
internal import OrderedCollections

/// A chaos run: instant-local and `clients` client processes, random writes from each, random
/// faults, then every replica compared with a model of the writes each client reported enqueued.
package struct ChaosRun: Sendable {
  package static let appID = "c4a05c4a-0500-4c4a-8c4a-05c4a05c4a05"

  package var writes: Int
  package var clients: Int
  package var seed: UInt64
  /// The `instant-chaos` executable (it is also the server and the clients).
  package var executable: URL
  /// One fault in this many writes on average, besides one of each kind.
  package var faultEvery = 40
  /// Each client waits 0…2×this between two writes (0: as fast as it can), so faults land
  /// among writes in flight rather than between bursts.
  package var pauseMilliseconds = 4
  /// How long each client may take to have every write acknowledged at the end. A long backlog
  /// on a loaded machine takes minutes (each refresh re-applies every pending write).
  package var drainSeconds = 600
  /// Where the data files go (kept); by default a new temporary directory, removed when the run
  /// passes.
  package var directory: URL?
  /// Child processes' stderr is discarded unless false.
  package var quiet = true
  /// Progress lines.
  package var log: @Sendable (String) -> Void = { _ in }

  package init(writes: Int, clients: Int, seed: UInt64, executable: URL) {
    self.writes = writes
    self.clients = clients
    self.seed = seed
    self.executable = executable
  }

  /// The `instant-chaos` executable next to the running one (the test bundle, or instant-chaos).
  package static var siblingExecutable: URL {
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let base = FileManager.default.fileExists(atPath: me.path) ? me : Bundle.main.executableURL ?? me
    return base.deletingLastPathComponent().appendingPathComponent("instant-chaos")
  }

  package func run() async throws -> ChaosReport {
    signal(SIGPIPE, SIG_IGN)
    let directory =
      self.directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("instant-chaos-\(seed)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let server = ChaosServer(
      executable: executable, data: directory.appendingPathComponent("server.sqlite").path, quiet: quiet)
    let clients = ChaosClients()
    var proxies: [ChaosProxy] = []
    do {
      let report = try await run(in: directory, server: server, clients: clients, proxies: &proxies)
      await shutDown(server: server, clients: clients, proxies: proxies)
      if report.passed, self.directory == nil { try? FileManager.default.removeItem(at: directory) }
      return report
    } catch {
      await shutDown(server: server, clients: clients, proxies: proxies)
      throw error
    }
  }

  private func shutDown(server: ChaosServer, clients: ChaosClients, proxies: [ChaosProxy]) async {
    for child in clients.all { await child.stop() }
    await server.stop()
    for proxy in proxies { await proxy.stop() }
  }

  private func run(
    in directory: URL, server: ChaosServer, clients: ChaosClients, proxies: inout [ChaosProxy]
  ) async throws -> ChaosReport {
    try await server.start()
    log("server on port \(await server.port); data in \(directory.path)")
    try await Self.createAttributes(port: await server.port)
    for _ in 0..<self.clients {
      let proxy = try await ChaosProxy.start(to: await server.port)
      await server.follow(proxy)
      proxies.append(proxy)
    }
    let counts = (0..<self.clients).map { writes / self.clients + ($0 < writes % self.clients ? 1 : 0) }
    var root = SplitMix(seed: seed)
    let schedule = ChaosFault.schedule(writes: counts, every: faultEvery, using: &root)
    let report = NIOLockedValueBox(ChaosReport(seed: seed, clients: self.clients))
    let started = ContinuousClock.now
    let proxyList = proxies

    let models = try await withThrowingTaskGroup(of: (Int, ChaosClientModel).self) { group in
      for index in 0..<self.clients {
        let worker = ClientTask(
          index: index, count: counts[index], faults: schedule[index], rng: root.derived(UInt64(index + 1)),
          proxy: proxyList[index], server: server, clients: clients, chaos: self, directory: directory, report: report)
        group.addTask { (index, try await worker.run()) }
      }
      var models = [ChaosClientModel](repeating: .init(), count: self.clients)
      for try await (index, model) in group { models[index] = model }
      return models
    }
    let written = ContinuousClock.now
    report.withLockedValue { $0.writeSeconds = seconds(written - started) }
    log("writes done; draining")

    var expected = ChaosState()
    for model in models { expected.merge(model.state) }
    report.withLockedValue {
      $0.sharedEntities = expected.entities.keys.filter { $0.hasPrefix("boards/") }.count
      $0.lastWriterWins = expected.choices.count
    }
    try await drain(clients: clients, directory: directory, report: report)
    report.withLockedValue { $0.drainSeconds = seconds(ContinuousClock.now - written) }
    log("drained")
    try await compare(expected: expected, port: await server.port, clients: clients, report: report)
    report.withLockedValue { $0.convergeSeconds = seconds(ContinuousClock.now - written) }
    return report.withLockedValue { $0 }
  }

  /// Every attribute and link exists before the clients start, as in an app whose schema is
  /// pushed: two devices creating the same new attribute at once is another race (docs/client.md).
  static func createAttributes(port: Int) async throws {
    let db = Self.client(port: port)
    defer { Task { await db.shutdown() } }
    let list = InstantID.make()
    let item = InstantID.make()
    let tag = InstantID.make()
    var board: JSONObject = ["title": "setup"]
    for index in 0..<ChaosSchema.perClientAttributes { board[ChaosSchema.clientAttribute(index)!] = 0 }
    try await db.transact([
      .create("lists", .id(list), ["title": "setup", "rank": 0]),
      .create("items", .id(item), ["text": "setup", "n": 0, "done": false]),
      .create("tags", .id(tag), ["name": "setup"]),
      .update("boards", .lookup("key", "setup"), board),
      .link("lists", .id(list), ["items": .string(item)]),
      .link("items", .id(item), ["tags": .string(tag)]),
    ]).synced()
    try await db.transact([.link("boards", .lookup("key", "setup"), ["items": .string(item)])]).synced()
    try await db.transact([
      .delete("lists", .id(list)), .delete("items", .id(item)), .delete("tags", .id(tag)),
      .delete("boards", .lookup("key", "setup")),
    ])
    .synced()
  }

  static func client(port: Int) -> InstantClient {
    var logger = Logger(label: "instant-chaos")
    logger.logLevel = .critical
    return InstantClient(
      appId: appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
      websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: .memory,
      schema: ChaosSchema.client, logger: logger)
  }

  private func drain(
    clients: ChaosClients, directory: URL, report: NIOLockedValueBox<ChaosReport>
  ) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, child) in clients.all.enumerated() {
        group.addTask {
          let answer = try JSON.parse(
            try await child.request(#"{"drain": \#(drainSeconds)}"#, timeout: .seconds(drainSeconds + 30)))
          if answer["drained"]?.boolValue != true {
            report.withLockedValue {
              $0.problems.append("client \(index): \(answer["pending"]?.serialized() ?? "?") writes never acknowledged")
            }
          }
        }
      }
      try await group.waitForAll()
    }
    // Refusals seen by every process of each client, killed ones included.
    for index in 0..<self.clients {
      let file = directory.appendingPathComponent("client-\(index).sqlite.rejected.jsonl")
      let lines = (try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n") ?? []
      for line in lines {
        guard let refusal = try? JSON.parse(String(line)), let message = refusal["error"]?.stringValue else { continue }
        let at = refusal["at"]?.numberValue.map { String(format: "%.3f", $0) } ?? "?"
        log("client \(index) write \(refusal["id"]?.stringValue ?? "?") refused at \(at): \(message)")
        report.withLockedValue { report in
          if message.contains("Updating entities that don't exist") {
            report.resentUpdatesRefused += 1
          } else {
            report.problems.append("client \(index): write \(refusal["id"]?.stringValue ?? "?") refused: \(message)")
          }
        }
      }
    }
  }

  private func compare(
    expected: ChaosState, port: Int, clients: ChaosClients, report: NIOLockedValueBox<ChaosReport>
  ) async throws {
    let serverState = try await Self.readServer(port: port)
    let differences = ChaosDifference.between(expected: expected, actual: serverState)
    report.withLockedValue { report in
      for difference in differences {
        switch difference.kind {
        case .lost: report.lost += 1
        case .duplicated: report.duplicated += 1
        case .diverged: report.diverged += 1
        }
      }
      report.firstDifference = differences.first.map { "server: \($0)" }
    }
    log("server: \(expected.entities.count) entities, \(expected.links.count) links expected; \(differences.count) differences")
    for (index, child) in clients.all.enumerated() {
      let deadline = ContinuousClock.now + .seconds(60)
      var last: ChaosState?
      var pending = false
      while ContinuousClock.now < deadline {
        let answer = try JSON.parse(try await child.request(#"{"view": true}"#))
        if let data = answer["view"], data != .null {
          last = ChaosState(result: data)
          pending = answer["pending"]?.boolValue ?? false
          if last == serverState, !pending { break }
          // Equal data still marked pending after a while: a write whose re-send changed nothing
          // gets no refresh from instant-local, so the mark stays until the next change.
          if last == serverState, ContinuousClock.now > deadline - .seconds(50) { break }
        }
        try await Task.sleep(for: .milliseconds(50))
      }
      if pending, last == serverState {
        report.withLockedValue { $0.viewsStillMarkedPending += 1 }
      }
      let differences = last.map { ChaosDifference.between(expected: expected, actual: $0) }
      report.withLockedValue { report in
        guard let differences else {
          report.diverged += 1
          report.problems.append("client \(index): no view from the server")
          return
        }
        guard let last, last != serverState else { return }
        report.diverged += max(1, differences.count)
        if report.firstDifference == nil {
          // Equal to the model but not to the server: a shared entity's id, or another value of a
          // last-writer-wins attribute.
          let first = differences.first ?? ChaosDifference.between(expected: serverState, actual: last).first
          report.firstDifference = "client \(index): \(first?.description ?? "differs from the server")"
        }
      }
    }
  }

  static func readServer(port: Int) async throws -> ChaosState {
    let db = Self.client(port: port)
    defer { Task { await db.shutdown() } }
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
      do {
        return ChaosState(result: try await db.queryOnce(ChaosSchema.query).data)
      } catch {
        guard ContinuousClock.now < deadline else { throw error }
        try await Task.sleep(for: .milliseconds(100))
      }
    }
  }
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The client processes of a run, by index, so whatever happens all are stopped at the end.
final class ChaosClients: Sendable {
  private let children = NIOLockedValueBox<[Int: ChildProcess]>([:])

  var all: [ChildProcess] { children.withLockedValue { $0.sorted { $0.key < $1.key }.map(\.value) } }

  func set(_ index: Int, _ child: ChildProcess) { children.withLockedValue { $0[index] = child } }
}
