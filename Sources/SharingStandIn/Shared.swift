/// A value shared with the rest of the app, optionally persisted and observed through a
/// ``SharedKey``: the stand-in for Sharing's `@Shared`, with the same surface.
///
/// ```swift
/// @Shared(.instantSync(Schema.todos)) var todos: IdentifiedArrayOf<Todo> = []
/// $todos.withLock { $0[id: id]?.done = true }
/// ```
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value>: @unchecked Sendable {
  // References guard their state with a lock; the struct only holds one.
  /// The storage behind this value (swift-sharing's SPI of the same name).
  @_spi(References) public let reference: any MutableReference<Value>

  init(reference: any MutableReference<Value>) { self.reference = reference }

  /// A shared value kept in memory, not persisted.
  public init(value: Value) { self.init(reference: BoxReference(value)) }

  public init(projectedValue: Self) { self = projectedValue }

  /// Shares the value `key` stores; `wrappedValue` is used until the key has loaded.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(reference: PersistentReferences.reference(forKey: key, default: wrappedValue(), skipInitialLoad: false))
  }

  /// Shares the value `key` stores, starting from the key's default.
  public init<K: SharedKey<Value>>(_ key: _SharedKeyDefault<K>) {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  public init<K: SharedKey<Value>>(wrappedValue: @autoclosure () -> Value, _ key: _SharedKeyDefault<K>) {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  /// The current value. Change it with ``withLock(_:)``.
  public var wrappedValue: Value { reference.wrappedValue }

  public var projectedValue: Self { self }

  /// Changes the value with exclusive access; a persisted value is then saved through its key.
  @discardableResult
  public func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    try reference.withLock(operation)
  }

  /// A shared reference to a member of the value.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member> {
    Shared<Member>(reference: KeyPathReference(base: reference, keyPath: keyPath))
  }

  /// A read-only shared reference to a member of the value.
  @_disfavoredOverload
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader(self)[dynamicMember: keyPath]
  }

  /// Whether the key is loading the value.
  public var isLoading: Bool { reference.isLoading }
  /// The last error the key reported while loading or observing, cleared by its next value.
  public var loadError: (any Error)? { reference.loadError }
  /// The last error the key reported while saving, cleared by its next successful save.
  public var saveError: (any Error)? { reference.saveError }

  /// Loads the value again from the key.
  public func load() async throws { try await reference.load() }
  /// Saves the current value through the key and waits until the key says it is stored.
  public func save() async throws { try await reference.save() }
}
