/// The blob attrs an entity object of a form shows: labels (distinct) and attr symbols, in order.
struct ObjectAttrs {
  let labels: [String]
  let syms: [UInt32]
  /// Per set of attrs present (attr `i` is bit `i`), their labels: objects with the same attrs
  /// share one list.
  let labelSets = LabelSets()

  final class LabelSets {
    /// The sets seen so far; a form's objects have a few (a linear search is cheaper than hashing).
    var byPresence: [(present: UInt64, labels: [String])] = []
  }

  func labels(present: UInt64) -> [String] {
    for known in labelSets.byPresence where known.present == present { return known.labels }
    let chosen = labels.indices.filter { present & (1 << UInt64($0)) != 0 }.map { labels[$0] }
    // Objects with many different sets share nothing worth keeping; the first few are kept.
    if labelSets.byPresence.count < 16 { labelSets.byPresence.append((present, chosen)) }
    return chosen
  }
}
