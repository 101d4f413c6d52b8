import CMallocStats
import InstantCore
import SyntheticData

// Heap bytes per triple of a TripleStore with all three indexes: the allocator's bytes in use
// after building a store from wire rows and dropping the rows (so the interned strings count),
// minus the bytes in use before, divided by the number of triples.
for items in [10_000, 100_000] {
  let before = cmallocstats_in_use()
  var rows: [JSON]? = SyntheticStore.triples(items: items).map(\.json)
  let store = try TripleStore(attrs: SyntheticStore.attrs, tripleRows: rows!)
  rows = nil
  let after = cmallocstats_in_use()
  let bytes = Int(after) - Int(before)
  print("\(items) items, \(store.count) triples: \(bytes / store.count) bytes per triple (\(bytes / 1_048_576) MiB)")
  withExtendedLifetime(store) {}
}
