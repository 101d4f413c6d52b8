import Foundation

/// How a key tells that reading its `@Shared` back made a new reference instead of finding its
/// own: the new one's `load` and `subscribe` find ``isMakingStray`` set, leave it inert, and mark
/// the probe.
enum ReferenceReadBack {
  final class Probe: @unchecked Sendable {
    // Read and written under `lock` only.
    private let lock = NSLock()
    private var stray = false
    func markStray() { lock.withLock { stray = true } }
    var madeStray: Bool { lock.withLock { stray } }
  }

  @TaskLocal static var probe: Probe?

  /// Whether a read-back is making a new reference (the caller, a key's `load` or `subscribe`,
  /// then leaves it inert).
  static var isMakingStray: Bool {
    guard let probe else { return false }
    probe.markStray()
    return true
  }
}
