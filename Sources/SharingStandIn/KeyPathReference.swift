/// A reference to a member of another reference's value: what `$shared.member` projects.
///
/// Key paths are immutable values and `base` is itself thread-safe; both are only read, so
/// sharing this reference is sound.
final class KeyPathReference<Root, Member>: MutableReference, @unchecked Sendable {
  private let base: any MutableReference<Root>
  private let keyPath: WritableKeyPath<Root, Member>

  init(base: any MutableReference<Root>, keyPath: WritableKeyPath<Root, Member>) {
    self.base = base
    self.keyPath = keyPath
  }

  var wrappedValue: Member { base.wrappedValue[keyPath: keyPath] }
  var isLoading: Bool { base.isLoading }
  var loadError: (any Error)? { base.loadError }
  var saveError: (any Error)? { base.saveError }
  func load() async throws { try await base.load() }
  func save() async throws { try await base.save() }
  func withLock<R>(_ body: (inout Member) throws -> R) rethrows -> R {
    try base.withLock { try body(&$0[keyPath: keyPath]) }
  }
}

/// A read-only reference to a member of another reference's value.
final class ReadKeyPathReference<Root, Member>: Reference, @unchecked Sendable {
  private let base: any Reference<Root>
  private let keyPath: KeyPath<Root, Member>

  init(base: any Reference<Root>, keyPath: KeyPath<Root, Member>) {
    self.base = base
    self.keyPath = keyPath
  }

  var wrappedValue: Member { base.wrappedValue[keyPath: keyPath] }
  var isLoading: Bool { base.isLoading }
  var loadError: (any Error)? { base.loadError }
  func load() async throws { try await base.load() }
}
