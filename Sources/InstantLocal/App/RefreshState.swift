import InstantCore

/// What the invalidation pass keeps between commits (docs/protocol.md, "Invalidation"): the
/// changes not refreshed yet, each subscribed query's footprint, and the numbering of the results
/// it makes. The app's actor owns it; the pass itself reads the store and the sessions.
struct RefreshState {
  /// What committed transactions changed whose invalidation pass has not run yet.
  private(set) var deferred = DeferredChanges()
  /// Each subscribed query's footprint, by canonical `q`; forgotten when the attrs or the rules
  /// change (or when it holds ``maxFootprints`` entries, since removed queries are not evicted
  /// one by one).
  private var footprints: [String: QueryFootprint] = [:]
  static let maxFootprints = 10_000
  /// The number of the last result made, whole or kept current (``QueryEvaluation/version``,
  /// ``SessionRecord/SentResult/version``).
  private(set) var evaluations = 0
  /// How many of them were kept current from what changed (``EntityLocalQuery``) rather than
  /// evaluated whole.
  private(set) var keptResults = 0

  /// Adds a commit's change to those the next pass refreshes.
  mutating func addChange(_ change: StoreChange) { deferred.add(change) }

  /// The changes the pass is to refresh now; none are left deferred.
  mutating func takeDeferred() -> DeferredChanges {
    defer { deferred = DeferredChanges() }
    return deferred
  }

  /// The footprint of query `q` (canonical `key`) over `attrs`, computed once per attrs version.
  mutating func footprint(_ key: String, _ q: JSON, attrs: AttrStore) -> QueryFootprint {
    if let cached = footprints[key] { return cached }
    if footprints.count >= Self.maxFootprints { footprints.removeAll() }
    let footprint = QueryFootprint(q, attrs: attrs)
    footprints[key] = footprint
    return footprint
  }

  /// The attrs or the rules changed: every footprint is computed again.
  mutating func forgetFootprints() { footprints.removeAll() }

  /// The version of a result just made: evaluated whole, or `kept` current from what changed.
  mutating func nextVersion(kept: Bool = false) -> Int {
    evaluations += 1
    if kept { keptResults += 1 }
    return evaluations
  }
}
