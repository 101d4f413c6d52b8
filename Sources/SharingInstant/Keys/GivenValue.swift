import IdentifiedCollections

/// What a collection key knows of the value its reference holds, and what each look at the
/// reference means. A value type with no I/O, owned by `CollectionSession` under its lock.
///
/// Nothing but the key and the app's `withLock` closures changes the reference, and a closure that
/// changes anything copies the value's buffer, since this keeps its own copy of the value it gave.
/// So when the reference holds another buffer, closures ran since, and they started from exactly
/// ``value``.
struct GivenValue<Value: KeyCollection> {
  typealias Collection = IdentifiedArrayOf<Value.Entity>

  /// What the reference holds as far as the key has seen: the value it gave last, or what edits it
  /// found since left. `nil` before the key knows any.
  private(set) var value: Value?

  init(_ value: Value? = nil) { self.value = value }

  /// What a look at the reference found.
  enum Found {
    /// The very value the key gave: no edit since.
    case given(Value)
    /// Edits made since, which started from exactly `start` and left `edit`.
    case edited(start: Collection, edit: Collection)
    /// Edits made before the key knew any value: there is no start to diff against.
    case noStart
  }

  /// What the reference holding `current` means.
  func look(at current: Value) -> Found {
    guard let value else { return .noStart }
    if Value.sameStorage(current, value) { return .given(value) }
    return .edited(start: value.collection, edit: current.collection)
  }

  /// The reference holds `value` now: the key gave it, or it is what the edits found left.
  mutating func holds(_ value: Value) { self.value = value }

  /// `value` with the entities `changed` as `edit` has them: changed, added at the end, or removed.
  static func onTop(_ value: Collection, of edit: Collection, changed: Set<String>) -> Collection {
    var value = value
    for id in changed { value[id: id] = edit[id: id] }
    return value
  }
}
