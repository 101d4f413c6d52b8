import Foundation
import InstantChaos
import Testing

/// A short chaos run: client processes writing through every fault kind, then every replica
/// compared with the model (docs/reliability.md).
@Suite("Chaos run", .timeLimit(.minutes(3)))
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
}
