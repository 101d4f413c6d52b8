import Foundation

/// A value behind a lock, shared by reference. (`Synchronization.Mutex` would need macOS 15; the
/// package supports macOS 14.)
public final class Locked<Value: Sendable>: @unchecked Sendable {
  // Safety: `value` is only read or written while `lock` is held.
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  public func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
