/// What a committed server transaction changed: the triples to write and delete, and the attrs.
package struct ServerTransactionChanges: Sendable, Equatable {
  package var added: [Triple] = []
  package var removed: [Triple] = []
  package var upsertedAttrs: [Attr] = []
  package var deletedAttrIDs: [String] = []
  /// Each step's resolved facts, for permission checks.
  package var facts = TransactionFacts()
  /// The attrs before the transaction, for ``TripleStore/revert(_:)``.
  var previousAttrs: AttrStore?
  /// Whether the app's attrs changed (every session then gets a refresh with the new attrs).
  package var attrsChanged: Bool { !upsertedAttrs.isEmpty || !deletedAttrIDs.isEmpty }
  /// Whether anything at all changed.
  package var isEmpty: Bool { added.isEmpty && removed.isEmpty && !attrsChanged }

  package static func == (a: Self, b: Self) -> Bool {
    a.added == b.added && a.removed == b.removed && a.upsertedAttrs == b.upsertedAttrs
      && a.deletedAttrIDs == b.deletedAttrIDs
  }
}
