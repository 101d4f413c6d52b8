import OrderedCollections

/// Reading one entity and its links, as permission rules see them (`data`, `data.ref(…)`).
extension TripleStore {
  /// The entity's cardinality-one attributes in `etype`, by label (a has-one link's value is the
  /// linked id); `nil` when the entity has no triple in that namespace.
  package func attributes(of entity: String, etype: String) -> JSONObject? {
    guard let e = symbols.lookup(entity), let slots = entitySlots(e) else { return nil }
    var out: JSONObject?
    for slot in slots where !slot.triples.isEmpty {
      guard let attr = attrs[symbols[slot.attr]], attr.forwardIdentity.etype == etype else { continue }
      if out == nil { out = [:] }
      if attr.isCardinalityOne, let r = slot.triples.last {
        out![attr.forwardIdentity.label] = json(records[Int(r)].v)
      }
    }
    return out
  }

  /// How many triples the entity has in `etype`.
  package func tripleCount(of entity: String, etype: String) -> Int {
    guard let e = symbols.lookup(entity), let slots = entitySlots(e) else { return 0 }
    var count = 0
    for slot in slots where attrs[symbols[slot.attr]]?.forwardIdentity.etype == etype { count += slot.triples.count }
    return count
  }

  /// The entity whose unique attr `attr` holds `value` (a lookup `[attr, value]`).
  package func entity(withUnique attr: String, value: JSON) -> String? {
    guard let a = symbols.lookup(attr), let key = existingKey(value), let r = aev[a]?[key]?.first else { return nil }
    return symbols[records[Int(r)].e]
  }

  /// Every triple of `attr`, read from its value index (what filtering ``triples`` by attr gives,
  /// in another order, without reading the rest of the store).
  package func triples(withAttr attr: String) -> [Triple] {
    guard let a = symbols.lookup(attr), let index = aev[a] else { return [] }
    var out: [Triple] = []
    for list in index.values { list.forEach { out.append(triple(at: $0)) } }
    return out
  }

  /// The entities that link to `target` through the ref attr `attr` (its reverse side).
  package func sources(linkingTo target: String, attr: String) -> [String] {
    guard let t = symbols.lookup(target), let a = symbols.lookup(attr), let slots = vae[t] else { return [] }
    var out: [String] = []
    for slot in slots where slot.attr == a {
      // The reverse index keeps stale entries (see the type's notes): only live triples count.
      for source in slot.sources.array where record(source, a, .sym(t)) != nil { out.append(symbols[source]) }
    }
    return out
  }
}
