import Foundation
import InstantCore

/// The entities this client's own writes may have created lately, and when: how a `@Shared` key
/// tells a row that reached it because of this device (a `transact` a moment before an edit that
/// removes the row) from one another device wrote while the edit was made (see docs/keys.md).
final class OwnWrites: @unchecked Sendable {
  /// How long a write is remembered.
  static let memory: Duration = .seconds(5)
  // Read and written under `lock` only.
  private let lock = NSLock()
  private var written: [String: ContinuousClock.Instant] = [:]
  private var lastPruned = ContinuousClock.now
  private var clock: @Sendable () -> ContinuousClock.Instant = { .now }

  /// The time source, for tests that freeze a key's clock: the key compares these times with its
  /// own, so both must run on the same clock (a loaded machine otherwise ages a write out of
  /// ``memory`` between a test's `transact` and its edit).
  func setClock(_ clock: @escaping @Sendable () -> ContinuousClock.Instant) {
    lock.withLock { self.clock = clock }
  }

  /// Records the entities `ops` may create (named by id; a lookup names none) as written now.
  /// A strict update (`upsert: false`) or a delete creates nothing.
  func record(_ ops: [InstaMLOp]) {
    lock.withLock {
      let now = clock()
      for op in ops where Self.mayCreate(op) {
        guard let id = op.entity.stringValue else { continue }
        written[Self.name(op.etype, id)] = now
      }
      guard lastPruned + Self.memory <= now else { return }
      written = written.filter { $0.value + Self.memory > now }
      lastPruned = now
    }
  }

  /// When a write of this client last may have created entity `id` of `etype` (within ``memory``).
  func last(_ etype: String, _ id: String) -> ContinuousClock.Instant? {
    lock.withLock {
      let now = clock()
      return written[Self.name(etype, id)].flatMap { $0 + Self.memory > now ? $0 : nil }
    }
  }

  private static func mayCreate(_ op: InstaMLOp) -> Bool {
    switch op.action {
    case .create, .link: true
    case .update, .merge: op.opts?["upsert"] != .bool(false)
    case .delete, .unlink, .ruleParams: false
    }
  }

  private static func name(_ etype: String, _ id: String) -> String { "\(etype)\u{0}\(id)" }
}
