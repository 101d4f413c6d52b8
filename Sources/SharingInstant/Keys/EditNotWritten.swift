/// A `withLock` edit a collection key could not write, because it could not know what the edit
/// started from: reported as the key's `saveError` and logged, never guessed at.
public struct EditNotWritten: Error, Sendable, CustomStringConvertible {
  public enum Reason: Sendable, Equatable {
    /// The key could not find the `@Shared` reference that saved the edit (Sharing made a new
    /// one when the key read it back).
    case referenceNotFound
    /// The key's first edit met a result between its closure and its save, which replaced it
    /// before the key held its reference.
    case replacedBeforeFirstSave
  }

  /// The namespace of the key's entities.
  public let namespace: String
  public let reason: Reason

  public var description: String {
    switch reason {
    case .referenceNotFound:
      "an edit of \(namespace) was not written: the key could not find its @Shared's reference, so it cannot know what the edit started from"
    case .replacedBeforeFirstSave:
      "an edit of \(namespace) was not written: a server result replaced it before the key's first save, so it cannot know what the edit started from; make the edit again"
    }
  }
}
