import Foundation
#if canImport(Observation)
  import Observation
#endif

/// The one reference for a key id: holds the value, loads it once, keeps the key's subscription
/// for as long as someone holds the reference, and saves through the key on every change.
///
/// All mutable state is read and written under `lock` (recursive, because a key may yield from
/// inside `save`), which is what makes the `@unchecked Sendable` sound.
final class PersistentReference<Key: SharedReaderKey>: Reference, @unchecked Sendable {
  private let key: Key
  private let lock = NSRecursiveLock()
  private var value: Key.Value
  private var _isLoading = false
  private var _loadError: (any Error)?
  private var _saveError: (any Error)?
  private var subscription: SharedSubscription?
  var onDeinit: (() -> Void)?
  #if canImport(Observation)
    private let registrar = ObservationRegistrar()
  #endif
  // The key paths Observation is told about, made once per reference: in a generic class a
  // `\.value` literal is built at run time each time it is evaluated (a type lookup by mangled
  // name), which was a few percent of a keys benchmark that reads and writes in a loop.
  private let valuePath: KeyPath<PersistentReference, Key.Value> = \.value
  private let isLoadingPath: KeyPath<PersistentReference, Bool> = \._isLoading
  private let loadErrorPath: KeyPath<PersistentReference, (any Error)?> = \._loadError
  private let saveErrorPath: KeyPath<PersistentReference, (any Error)?> = \._saveError

  init(key: Key, value initialValue: Key.Value, skipInitialLoad: Bool) {
    self.key = key
    value = initialValue
    let callback: @Sendable (Result<Key.Value?, any Error>) -> Void = { [weak self] result in
      guard let self else { return }
      isLoading = false
      switch result {
      case .failure(let error):
        loadError = error
      case .success(let newValue):
        if lock.withLock({ _loadError != nil }) { loadError = nil }
        wrappedValue = newValue ?? initialValue
      }
    }
    if !skipInitialLoad {
      isLoading = true
      key.load(context: .initialValue(initialValue), continuation: LoadContinuation("\(key)", callback: callback))
    }
    let subscription = key.subscribe(
      context: skipInitialLoad ? .userInitiated : .initialValue(initialValue),
      subscriber: SharedSubscriber(callback: callback, onLoading: { [weak self] in self?.isLoading = $0 })
    )
    lock.withLock { self.subscription = subscription }
  }

  deinit { onDeinit?() }

  var isLoading: Bool {
    get { tracked(isLoadingPath) }
    set { mutate(isLoadingPath) { $0._isLoading = newValue } }
  }

  var loadError: (any Error)? {
    get { tracked(loadErrorPath) }
    set { mutate(loadErrorPath) { $0._loadError = newValue } }
  }

  var saveError: (any Error)? {
    get { tracked(saveErrorPath) }
    set { mutate(saveErrorPath) { $0._saveError = newValue } }
  }

  var wrappedValue: Key.Value {
    get { tracked(valuePath) }
    set { mutate(valuePath) { $0.value = newValue } }
  }

  func load() async throws {
    isLoading = true
    defer { isLoading = false }
    do {
      let key = key
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        key.load(
          context: .userInitiated,
          continuation: LoadContinuation("\(key)") { result in
            switch result {
            case .success(.some(let newValue)):
              self.wrappedValue = newValue
              continuation.resume()
            case .success(.none):
              continuation.resume()
            case .failure(let error):
              continuation.resume(throwing: error)
            }
          }
        )
      }
      if lock.withLock({ _loadError != nil }) { loadError = nil }
    } catch {
      loadError = error
      throw error
    }
  }

  private func tracked<T>(_ keyPath: KeyPath<PersistentReference, T>) -> T {
    #if canImport(Observation)
      registrar.access(self, keyPath: keyPath)
    #endif
    return lock.withLock { self[keyPath: keyPath] }
  }

  func mutate<T, R>(_ keyPath: KeyPath<PersistentReference, T>, _ body: (PersistentReference) throws -> R) rethrows -> R {
    #if canImport(Observation)
      return try registrar.withMutation(of: self, keyPath: keyPath) { try lock.withLock { try body(self) } }
    #else
      return try lock.withLock { try body(self) }
    #endif
  }
}

#if canImport(Observation)
  extension PersistentReference: Observable {}
#endif

extension PersistentReference: MutableReference where Key: SharedKey {
  func withLock<R>(_ body: (inout Key.Value) throws -> R) rethrows -> R {
    let (result, modified) = try mutate(valuePath) { reference in
      let result = try body(&reference.value)
      return (result, reference.value)
    }
    let key = key
    key.save(
      modified, context: .didSet,
      continuation: SaveContinuation("\(key)") { [weak self] result in
        guard let self else { return }
        switch result {
        case .success:
          // As swift-sharing's: a save that succeeds clears both errors.
          if lock.withLock({ _loadError != nil }) { loadError = nil }
          if lock.withLock({ _saveError != nil }) { saveError = nil }
        case .failure(let error):
          saveError = error
        }
      })
    return result
  }

  func save() async throws {
    if lock.withLock({ _saveError != nil }) { saveError = nil }
    do {
      let key = key
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        key.save(
          lock.withLock { value }, context: .userInitiated,
          continuation: SaveContinuation("\(key)") { result in continuation.resume(with: result.map { _ in () }) })
      }
    } catch {
      saveError = error
      throw error
    }
    if lock.withLock({ _loadError != nil }) { loadError = nil }
  }
}
