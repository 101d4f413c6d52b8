import Foundation

/// A running observation; cancelled by `cancel()` or when the last copy goes away.
public struct SharedSubscription: Sendable {
  private let box: Box

  public init(_ cancel: @escaping @Sendable () -> Void) {
    box = Box(cancel)
  }

  public func cancel() { box.cancel() }

  private final class Box: Sendable {
    // Read and cleared under `lock` only.
    private nonisolated(unsafe) var onCancel: (@Sendable () -> Void)?
    private let lock = NSLock()

    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

    func cancel() {
      let onCancel = lock.withLock {
        defer { self.onCancel = nil }
        return self.onCancel
      }
      onCancel?()
    }

    deinit { cancel() }
  }
}
