/// A read-only view of a shared value, loaded and observed through a ``SharedReaderKey``: the
/// stand-in for Sharing's `@SharedReader`.
@propertyWrapper
@dynamicMemberLookup
public struct SharedReader<Value>: @unchecked Sendable {
  // References guard their state with a lock; the struct only holds one.
  let reference: any Reference<Value>

  init(reference: any Reference<Value>) { self.reference = reference }

  /// A read-only view of `shared`.
  public init(_ shared: Shared<Value>) { self.init(reference: shared.reference) }

  /// A constant value.
  public init(value: Value) { self.init(reference: BoxReference(value)) }

  public init(projectedValue: Self) { self = projectedValue }

  /// Reads the value `key` stores; `wrappedValue` is used until the key has loaded.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>) {
    self.init(reference: PersistentReferences.reference(forKey: key, default: wrappedValue(), skipInitialLoad: false))
  }

  /// Reads the value `key` stores, starting from the key's default.
  public init<K: SharedReaderKey<Value>>(_ key: _SharedKeyDefault<K>) {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  public init<K: SharedReaderKey<Value>>(wrappedValue: @autoclosure () -> Value, _ key: _SharedKeyDefault<K>) {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  public var wrappedValue: Value { reference.wrappedValue }

  public var projectedValue: Self { self }

  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader<Member>(reference: ReadKeyPathReference(base: reference, keyPath: keyPath))
  }

  public var isLoading: Bool { reference.isLoading }
  public var loadError: (any Error)? { reference.loadError }

  public func load() async throws { try await reference.load() }
}
