import Foundation
import InstantCore

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
  /// Edits whose reference held another value that was not the newest the key gave it (another
  /// thread's edit not yet saved), and edits whose reference could not be read back.
  package var editsBesideOtherEdits = 0
  package var editsUnread = 0

  private static let lock = NSLock()
  nonisolated(unsafe) private static var counts = KeyEditStatistics()
  nonisolated(unsafe) private static var _observer: (@Sendable (String, [InstaMLOp]) -> Void)?

  /// Called with each edit's reading (`edit`, `afterResult`, …) and writes, for a stress run that
  /// traces where damage came from.
  package static var observer: (@Sendable (String, [InstaMLOp]) -> Void)? {
    get { lock.withLock { _observer } }
    set { lock.withLock { _observer = newValue } }
  }

  /// The counts so far.
  package static var current: KeyEditStatistics { lock.withLock { counts } }

  enum Reading { case edit, afterResult, besideOtherEdit, unread }

  static func record(_ reading: Reading, withheld: Int, ops: [InstaMLOp]) {
    observer?("\(reading)", ops)
    lock.withLock {
      counts.edits += 1
      switch reading {
      case .edit: break
      case .afterResult: counts.editsMeetingResults += 1
      case .besideOtherEdit: counts.editsBesideOtherEdits += 1
      case .unread: counts.editsUnread += 1
      }
      counts.withheldParts += withheld
    }
  }
}
