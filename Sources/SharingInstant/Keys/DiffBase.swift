/// What a `withLock` edit is compared with to find the writes it makes.
package enum DiffBase: Sendable, CaseIterable {
  /// The value the edit's closure was given, as well as the key can know it (see docs/keys.md,
  /// "Writes: what `withLock` sends"). What every app uses.
  case edited
  /// The newest value the key showed, whatever the closure was given: the design before issue
  /// 19, which deletes and writes back what arrived while an edit was made. Kept only so tests
  /// and `instant-chaos keys` can show that their checks catch that.
  case newestShown
}
