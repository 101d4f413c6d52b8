import OrderedCollections

/// A subscribed query whose server result is the union of one part per entity, each part read
/// from that entity's own triples: one top-level namespace, no child forms, no pagination, and a
/// `where` over the namespace's own cardinality-one attributes only (no links, no dotted paths).
/// `Schema.todos`, `todos.where(done == false).orderBy(title)` and `fields` are such queries.
///
/// For them a change costs what it touches: the entities whose triples changed are evaluated
/// again, one at a time, with the same plan a whole evaluation runs (``TripleStore/serverQuery(_:entities:)``),
/// and their parts compared with the result sent before. The order of a result is not part of the
/// server's answer (its triples are a set), which is why `order` is allowed and pagination is not.
package struct EntityLocalQuery: Sendable {
  package let q: JSON
  package let namespace: String

  /// `nil` when `q` is not such a query (it is then evaluated whole).
  package init?(_ q: JSON, attrs: AttrStore) {
    guard let entries = JSObjects.entries(q) else { return nil }
    let forms = entries.filter { $0.0 != "$$ruleParams" }
    // `$files` results carry signed URLs made at evaluation time.
    guard forms.count == 1, let (namespace, form) = forms.first, namespace != "$files",
      case let .object(parts) = form, parts.keys.allSatisfy({ $0 == "$" })
    else { return nil }
    if let options = parts["$"] {
      guard case let .object(o) = options, o.keys.allSatisfy(Self.allowedOptions.contains) else { return nil }
      if let whereValue = o["where"], !Self.isLocal(whereValue, namespace, attrs) { return nil }
    }
    self.q = q
    self.namespace = namespace
  }

  static let allowedOptions: Set<String> = ["where", "order", "fields"]

  /// Whether a `where` reads only the entity's own cardinality-one, non-link attributes: then the
  /// triples that satisfy it are the entity's own, the same ones whichever way it is evaluated.
  static func isLocal(_ whereValue: JSON, _ namespace: String, _ attrs: AttrStore) -> Bool {
    guard case let .object(conditions) = whereValue else { return false }
    for (key, value) in conditions {
      if key == "and" || key == "or" {
        guard case let .array(clauses) = value, clauses.allSatisfy({ isLocal($0, namespace, attrs) }) else {
          return false
        }
        continue
      }
      guard !key.contains("."), let attr = attrs.forward(namespace, key), !attr.isRef, attr.isCardinalityOne else {
        return false
      }
    }
    return true
  }

  /// What changed in the result since `previous` was evaluated, given every triple added to or
  /// removed from the store since then (`changed`; more is harmless): the triples to remove from
  /// `previous` and those to add, so that the result is what a whole evaluation gives now.
  package func changes(
    in store: TripleStore, previous: Set<Triple>, since changed: some Sequence<Triple>
  ) throws(InstaQLError) -> (removed: [Triple], added: [Triple]) {
    // The entities of this namespace that changed, and what each part may have held: the
    // entity's triples now, and those removed since.
    var touched: [String: [Triple]] = [:]
    for triple in changed where store.attrs[triple.attr]?.forwardIdentity.etype == namespace {
      touched[triple.entity, default: []].append(triple)
    }
    guard !touched.isEmpty else { return ([], []) }
    let now = Set(try store.serverQuery(q, entities: touched.keys))
    var removed: [Triple] = []
    var seen: Set<Triple> = []
    for (entity, triples) in touched {
      for triple in store.triples(of: entity) + triples
      where seen.insert(triple).inserted && previous.contains(triple) && !now.contains(triple) {
        removed.append(triple)
      }
    }
    return (removed, now.filter { !previous.contains($0) })
  }
}
