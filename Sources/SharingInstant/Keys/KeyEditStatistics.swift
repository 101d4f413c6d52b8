import Foundation

/// Counts of what collection keys' `withLock` edits met, process-wide: read by
/// `instant-chaos keys` and tests, which report how many edits a run put in a race.
package struct KeyEditStatistics: Sendable, Equatable {
  /// Edits that changed something.
  package var edits = 0
  /// Edits saved while more than one value could have been their start (a result reached the key
  /// while the edit was made).
  package var editsMeetingResults = 0
  /// Parts of those edits' likeliest diffs that were withheld as ambiguous.
  package var withheldParts = 0

  private static let lock = NSLock()
  nonisolated(unsafe) private static var counts = KeyEditStatistics()

  /// The counts so far.
  package static var current: KeyEditStatistics { lock.withLock { counts } }

  static func record(metResults: Bool, withheld: Int) {
    lock.withLock {
      counts.edits += 1
      if metResults { counts.editsMeetingResults += 1 }
      counts.withheldParts += withheld
    }
  }
}
