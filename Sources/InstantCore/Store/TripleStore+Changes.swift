extension TripleStore {
  /// Applies a server result's changes (``ResultChanges``) to the store built from that result:
  /// the removed triples go and the added ones are indexed, as a store built from the changed
  /// result would hold them (clean indexes, nothing stale). Returns the added triples whose attr
  /// the store does not know (dropped, as ``init(attrs:triples:cardinalityInference:)`` drops
  /// them) and the removed ones it did not hold.
  public mutating func apply(_ changes: ResultChanges) -> (unindexed: [Triple], absent: [Triple]) {
    var absent: [Triple] = []
    for triple in changes.removed where !remove(triple) { absent.append(triple) }
    var unindexed: [Triple] = []
    for triple in changes.added where !index(triple) { unindexed.append(triple) }
    // Object and array values are kept by position and not freed with their triple: a store kept
    // current for long is rebuilt once most of them are gone.
    if objects.count > 1024, objects.count > 2 * count { rebuild() }
    return (unindexed, absent)
  }

  /// Removes (e, a, v) with its indexes, leaving nothing empty behind; false when the store does
  /// not hold it.
  @discardableResult
  public mutating func remove(_ triple: Triple) -> Bool {
    guard let e = symbols.lookup(triple.entity), let a = symbols.lookup(triple.attr) else { return false }
    let found: UInt32?
    if let v = existingKey(triple.value) {
      found = record(e, a, v)
    } else {
      // An array or object value has a key of its own per record: found by its JSON.
      var match: UInt32?
      slot(e, a)?.forEach { r in if match == nil, json(records[Int(r)].v) == triple.value { match = r } }
      found = match
    }
    guard let r = found else { return false }
    removeRecord(r, .clean)
    return true
  }
}
