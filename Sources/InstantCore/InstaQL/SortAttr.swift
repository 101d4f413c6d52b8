/// An attr a form is ordered by, with its symbol in the store.
struct SortAttr {
  let sym: UInt32?
  let isDate: Bool

  init(_ attr: Attr, _ store: TripleStore) {
    sym = store.symbols.lookup(attr.id)
    isDate = attr.isDate
  }

  init(_ attr: Attr, sym: UInt32?) {
    self.sym = sym
    isDate = attr.isDate
  }
}
