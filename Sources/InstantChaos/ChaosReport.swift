import Foundation

/// What a chaos run did and found.
public struct ChaosReport: Sendable, CustomStringConvertible {
  public var seed: UInt64
  public var clients: Int
  /// Writes the clients reported enqueued.
  public var writes = 0
  /// Writes the clients made inside those (a batch counts its ops).
  public var ops = 0
  /// Ops among those that name an entity by a lookup (as the entity or as a link's target).
  public var lookups = 0
  /// Lookups among those that are a link's target (from an item to a board).
  public var targetLookups = 0
  /// Ops among those that write a shared board (an attribute, or a link to an item).
  public var sharedWrites = 0
  /// Shared boards the clients wrote, each expected once on the server.
  public var sharedEntities = 0
  /// Last-writer-wins attributes checked (each must end as one of the clients' last values).
  public var lastWriterWins = 0
  public var faults: [ChaosFault: Int] = [:]
  /// From the first write to the last one enqueued.
  public var writeSeconds = 0.0
  /// From the last write enqueued until every client had every write acknowledged.
  public var drainSeconds = 0.0
  /// From the last write enqueued until the server and every client equal the model.
  public var convergeSeconds = 0.0
  public var lost = 0
  public var duplicated = 0
  public var diverged = 0
  /// Refusals of re-sent strict updates of entities the same client deleted later (see
  /// docs/client.md, "Re-sends and duplicates"): expected under cuts, harmless.
  public var resentUpdatesRefused = 0
  /// Clients whose view equals the server's but still says `hasPendingWrites` (see ChaosRun).
  public var viewsStillMarkedPending = 0
  /// Any other refusal, and anything else that went wrong (a client that never drained).
  public var problems: [String] = []
  /// The first difference found, server first.
  public var firstDifference: String?

  public var passed: Bool { lost == 0 && duplicated == 0 && diverged == 0 && problems.isEmpty }

  public var description: String {
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
