/// The storage behind a `SharedReader`: a value that can be read, loaded and observed. Public under
/// the same SPI as swift-sharing's (`@_spi(References)`), for keys that take their reference's lock.
@_spi(References)
public protocol Reference<Value>: AnyObject, Sendable {
  associatedtype Value
  var wrappedValue: Value { get }
  var isLoading: Bool { get }
  var loadError: (any Error)? { get }
  func load() async throws
}

/// The storage behind a `Shared`: a reference that can also be changed and saved.
@_spi(References)
public protocol MutableReference<Value>: Reference {
  var saveError: (any Error)? { get }
  /// Runs `body` on the value under the reference's lock, then saves the result through the key.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R
  func save() async throws
}
