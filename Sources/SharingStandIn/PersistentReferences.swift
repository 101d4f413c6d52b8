import Foundation

/// The process's live references, one per key id: two `@Shared` with equal keys share one value,
/// one subscription and one snapshot of what the key last delivered or saved.
enum PersistentReferences {
  private final class Weak: @unchecked Sendable {
    weak var reference: AnyObject?
    init(_ reference: AnyObject) { self.reference = reference }
  }

  // Read and written under `lock` only.
  private nonisolated(unsafe) static var references: [AnyHashable: Weak] = [:]
  private static let lock = NSRecursiveLock()

  static func reference<Key: SharedReaderKey>(
    forKey key: Key, default value: @autoclosure () throws -> Key.Value, skipInitialLoad: Bool
  ) rethrows -> PersistentReference<Key> {
    let id = AnyHashable(key.id)
    return try lock.withLock {
      if let existing = references[id]?.reference as? PersistentReference<Key> { return existing }
      let reference = PersistentReference(key: key, value: try value(), skipInitialLoad: skipInitialLoad)
      references[id] = Weak(reference)
      reference.onDeinit = {
        lock.withLock {
          if references[id]?.reference == nil { references[id] = nil }
        }
      }
      return reference
    }
  }
}
