/// What one collection key's `withLock` edits met: read by `instant-chaos keys` and tests, which
/// report how many edits a run put in a race with a result.
package struct KeyEditStatistics: Sendable, Equatable {
  /// Writes the key made of its edits (one per time it found edits, however many closures they
  /// took).
  package var writes = 0
  /// Times a result reached the key while an edit was in the reference and not yet saved: the
  /// interleaving a diff against the result would get wrong.
  package var editsMetByResults = 0

  package init() {}
}
