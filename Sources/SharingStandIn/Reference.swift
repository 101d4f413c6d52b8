/// The storage behind a `SharedReader`: a value that can be read, loaded and observed.
protocol Reference<Value>: AnyObject, Sendable {
  associatedtype Value
  var wrappedValue: Value { get }
  var isLoading: Bool { get }
  var loadError: (any Error)? { get }
  func load() async throws
}

/// The storage behind a `Shared`: a reference that can also be changed and saved.
protocol MutableReference<Value>: Reference {
  var saveError: (any Error)? { get }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R
  func save() async throws
}
