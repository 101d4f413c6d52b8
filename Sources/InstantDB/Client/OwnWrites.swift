import Foundation
import InstantCore

/// The entities this client's own writes named lately, and when: how a `@Shared` key tells a row
/// that reached it from this device (a `transact` a moment before an edit that removes the row)
/// from one another device wrote while the edit was made (see docs/keys.md).
final class OwnWrites: @unchecked Sendable {
  /// How long a write is remembered.
  static let memory: Duration = .seconds(5)
  // Read and written under `lock` only.
  private let lock = NSLock()
  private var written: [String: ContinuousClock.Instant] = [:]
  private var lastPruned = ContinuousClock.now

  /// Records the entities `ops` name (by id; a lookup names none) as written at `now`.
  func record(_ ops: [InstaMLOp], at now: ContinuousClock.Instant = .now) {
    lock.withLock {
      for op in ops {
        guard let id = op.entity.stringValue else { continue }
        written[Self.name(op.etype, id)] = now
      }
      guard lastPruned + Self.memory <= now else { return }
      written = written.filter { $0.value + Self.memory > now }
      lastPruned = now
    }
  }

  /// Whether a write of this client named entity `id` of `etype` within `window` before `now`.
  func wrote(_ etype: String, _ id: String, within window: Duration, at now: ContinuousClock.Instant = .now) -> Bool {
    lock.withLock { written[Self.name(etype, id)].map { $0 + window > now } ?? false }
  }

  private static func name(_ etype: String, _ id: String) -> String { "\(etype)\u{0}\(id)" }
}
