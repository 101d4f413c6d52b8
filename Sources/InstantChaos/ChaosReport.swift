import Foundation

/// What a chaos run did and found.
package struct ChaosReport: Sendable, CustomStringConvertible {
  package var seed: UInt64
  package var clients: Int
  /// Writes the clients reported enqueued.
  package var writes = 0
  /// Writes the clients made inside those (a batch counts its ops).
  package var ops = 0
  /// Ops among those that name an entity by a lookup (as the entity or as a link's target).
  package var lookups = 0
  /// Lookups among those that are a link's target (from an item to a board).
  package var targetLookups = 0
  /// Ops among those that write a shared board (an attribute, or a link to an item).
  package var sharedWrites = 0
  /// Shared boards the clients wrote, each expected once on the server.
  package var sharedEntities = 0
  /// Last-writer-wins attributes checked (each must end as one of the clients' last values).
  package var lastWriterWins = 0
  package var faults: [ChaosFault: Int] = [:]
  /// From the first write to the last one enqueued.
  package var writeSeconds = 0.0
  /// From the last write enqueued until every client had every write acknowledged.
  package var drainSeconds = 0.0
  /// From the last write enqueued until the server and every client equal the model.
  package var convergeSeconds = 0.0
  package var lost = 0
  package var duplicated = 0
  package var diverged = 0
  /// Refusals of re-sent strict updates of entities the same client deleted later (see
  /// docs/client.md, "Re-sends and duplicates"): expected under cuts, harmless.
  package var resentUpdatesRefused = 0
  /// Clients whose view equals the server's but still says `hasPendingWrites` (see ChaosRun).
  package var viewsStillMarkedPending = 0
  /// Any other refusal, and anything else that went wrong (a client that never drained).
  package var problems: [String] = []
  /// The first difference found, server first.
  package var firstDifference: String?

  package var passed: Bool { lost == 0 && duplicated == 0 && diverged == 0 && problems.isEmpty }

  package var description: String {
    var lines = [
      "seed: \(seed), clients: \(clients)",
      "writes: \(writes) enqueued (\(ops) ops) in \(formatted(writeSeconds)) s",
      "lookups \(lookups) (\(targetLookups) as a link's target), shared writes \(sharedWrites) (\(sharedEntities) shared entities, \(lastWriterWins) last-writer-wins values)",
      "faults: " + ChaosFault.allCases.map { "\($0.rawValue) \(faults[$0, default: 0])" }.joined(separator: ", ")
        + " (\(faults.values.reduce(0, +)) in all)",
      "drained in \(formatted(drainSeconds)) s, converged in \(formatted(convergeSeconds)) s after the last write",
      "re-sent updates refused (expected): \(resentUpdatesRefused), views still marked pending: \(viewsStillMarkedPending)",
      "lost: \(lost), duplicated: \(duplicated), diverged: \(diverged)",
    ]
    for problem in problems.prefix(10) { lines.append("problem: \(problem)") }
    if let firstDifference { lines.append("first difference: \(firstDifference)") }
    return lines.joined(separator: "\n")
  }

  private func formatted(_ seconds: Double) -> String { String(format: "%.2f", seconds) }
}
