import Foundation
import InstantCore
import TestSupport
import Testing

@testable import InstantChaos
internal import OrderedCollections

/// A short chaos run: client processes writing through every fault kind, then every replica
/// compared with the model (docs/reliability.md).
@Suite("Chaos run", .timeLimit(.minutes(10)))
struct ChaosRunTests {
  @Test("300 writes from 2 client processes through every fault: nothing lost, duplicated or diverged")
  func shortRun() async throws {
    var chaos = ChaosRun(writes: 300, clients: 2, seed: 11, executable: ChaosRun.siblingExecutable)
    chaos.faultEvery = 30
    let report = try await chaos.run()
    print(report)
    let faults = report.faults
    let writes = report.writes
    #expect(writes == 300)
    // Writes by lookup to the boards every client shares, each board once on the server.
    #expect(report.lookups > 0 && report.targetLookups > 0 && report.sharedWrites > 0)
    #expect(report.sharedEntities >= 1 && report.lastWriterWins >= 1)
    for fault in ChaosFault.allCases { #expect(faults[fault, default: 0] >= 1, "\(fault) injected") }
    #expect(report.passed, "\(report)")
  }

  @Test("Two offline clients create one board by lookup, unaware of each other: the server keeps one, with both")
  func concurrentCreateByLookup() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-lookup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let executable = ChaosRun.siblingExecutable
    let server = ChaosServer(
      executable: executable, data: directory.appendingPathComponent("server.sqlite").path, quiet: true)
    var clients: [ChildProcess] = []
    func stopAll() async {
      for client in clients { await client.stop() }
      await server.stop()
      try? FileManager.default.removeItem(at: directory)
    }
    do {
      try await server.start()
      let port = await server.port
      try await ChaosRun.createAttributes(port: port)
      for index in 0..<2 {
        let client = try await ClientTask.launch(
          index: index, executable: executable, port: port,
          database: directory.appendingPathComponent("client-\(index).sqlite"), quiet: true
        ) { clients.append($0) }
        #expect(try JSON.parse(await client.request(#"{"offline": true}"#))["ok"] == true)
      }
      // Each client, offline, makes an item, links it to board-0 and titles board-0, all by a
      // lookup on a board that does not exist yet: each write creates it as far as it knows.
      var expected = ChaosState()
      expected.entities["boards/board-0"] = ["key": "board-0", "c0": 0, "c1": 1]
      expected.choices["boards/board-0.title"] = ["c0-3", "c1-3"]
      for (index, client) in clients.enumerated() {
        let item = InstantID.make()
        let writes: [[InstaMLOp]] = [
          [.create("items", .id(item), ["text": .string("item \(index)"), "n": 1, "done": false])],
          [.link("boards", .lookup("key", "board-0"), ["items": .string(item)])],
          [.update("boards", .lookup("key", "board-0"), ["title": .string("c\(index)-3"), "c\(index)": .number(Double(index))])],
        ]
        for (n, ops) in writes.enumerated() {
          let command: JSON = ["write": .number(Double(n)), "ops": .array(ops.map(\.wire))]
          #expect(try JSON.parse(await client.request(command.serialized()))["enqueued"] == .number(Double(n)))
        }
        expected.entities["items/\(item)"] = ["text": .string("item \(index)"), "n": 1, "done": false]
        expected.links.insert("boards/board-0/items/\(item)")
      }
      // Both online at once; each drains (every write acknowledged, none refused).
      try await withThrowingTaskGroup(of: JSON.self) { group in
        for client in clients {
          // The drain's own limit is the suite's backstop: a loaded machine is slow, not lossy.
          group.addTask {
            try JSON.parse(await client.request(#"{"drain": \#(Int(backstop.seconds))}"#, timeout: backstop + .seconds(30)))
          }
        }
        for try await answer in group {
          #expect(answer["drained"] == true)
          #expect(answer["rejected"] == [])
        }
      }
      let state = try await ChaosRun.readServer(port: port)
      #expect(ChaosDifference.between(expected: expected, actual: state) == [])
      #expect(state.entities.keys.filter { $0.hasPrefix("boards/") } == ["boards/board-0"])
      #expect(state.ids["boards/board-0"] != nil)
    } catch {
      await stopAll()
      throw error
    }
    await stopAll()
  }
}
