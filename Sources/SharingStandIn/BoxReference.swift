import Foundation

/// The storage of `Shared(value:)`: a value in memory, with no key behind it.
///
/// `value` is read and written under `lock` only, which makes the `@unchecked Sendable` sound.
final class BoxReference<Value>: MutableReference, @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  var wrappedValue: Value { lock.withLock { value } }
  var isLoading: Bool { false }
  var loadError: (any Error)? { nil }
  var saveError: (any Error)? { nil }
  func load() async throws {}
  func save() async throws {}
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R { try lock.withLock { try body(&value) } }
}
