import Foundation
import IdentifiedCollections

/// How a key reads back the value its `@Shared` holds when an edit is saved: Sharing keeps one
/// reference per key id, so `Shared(wrappedValue:_:)` with the key itself finds it. Should that
/// make a new reference instead (another dependency context's, say), the new one's `load` and
/// `subscribe` find ``isMakingStray`` set, do nothing, and the reading is `.unknown`.
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

  /// What `read` finds compared with `edit`, the value the edit's closure left: the same storage
  /// (`.edit`), another value (converted to the key's collection), or `.unknown`.
  static func reading<Output, Entity>(
    of edit: Output, read: () -> Output, sameStorage: (Output, Output) -> Bool,
    convert: (Output) -> IdentifiedArrayOf<Entity>
  ) -> ReferenceReading<IdentifiedArrayOf<Entity>> {
    let probe = Probe()
    let current = $probe.withValue(probe) { read() }
    if probe.madeStray { return .unknown }
    return sameStorage(current, edit) ? .edit : .other(convert(current))
  }

  /// Whether two arrays share one buffer (two empty ones count as the same: an empty edit is
  /// only ever told apart by the values the key took, see ``EditBases``).
  static func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
    guard a.count == b.count else { return false }
    guard !a.isEmpty else { return true }
    return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
  }

  static func sameStorage<Entity>(_ a: IdentifiedArrayOf<Entity>, _ b: IdentifiedArrayOf<Entity>) -> Bool {
    sameStorage(a.elements, b.elements)
  }
}
