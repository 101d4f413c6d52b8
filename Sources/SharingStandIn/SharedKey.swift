/// A key that can also save the value: the stand-in for Sharing's `SharedKey`.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Saves `value`; the continuation is resumed exactly once, when the value is stored.
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)
}

/// Why a key is asked to save: the value was changed (`withLock`), or the user called `save()`.
public enum SaveContext: Hashable, Sendable {
  case didSet
  case userInitiated
}
