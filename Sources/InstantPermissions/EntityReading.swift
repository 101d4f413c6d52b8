import InstantCore
import OrderedCollections

/// The data a rule reads: an entity's attributes and its links, as the store holds them now
/// (``TripleStore``) or as it held them before the transaction being checked (``StoreBefore``).
protocol EntityReading {
  var attrs: AttrStore { get }
  /// Cardinality-one attributes by label; `nil` when the entity has nothing in `etype`.
  func attributes(of entity: String, etype: String) -> JSONObject?
  /// The entities `entity` links to through the ref attr `attr`.
  func targets(of entity: String, attr: String) -> [String]
  /// The entities linking to `target` through the ref attr `attr`.
  func sources(linkingTo target: String, attr: String) -> [String]
}

extension TripleStore: EntityReading {
  func targets(of entity: String, attr: String) -> [String] {
    values(of: entity, attr: attr).compactMap(\.stringValue)
  }
}

/// The store as it was before a transaction that has been applied to it: its triples, minus
/// those the transaction added, plus those it removed. Update, delete and unlink rules read
/// this, as the reference evaluates them before writing.
struct StoreBefore: EntityReading {
  let store: TripleStore
  private var added: [String: [Triple]] = [:]
  private var removed: [String: [Triple]] = [:]
  private var addedByTarget: [String: [Triple]] = [:]
  private var removedByTarget: [String: [Triple]] = [:]

  init(_ store: TripleStore, undoing changes: ServerTransactionChanges) {
    self.store = store
    for t in changes.added {
      added[t.entity, default: []].append(t)
      if let target = t.value.stringValue, store.attrs[t.attr]?.isRef == true { addedByTarget[target, default: []].append(t) }
    }
    for t in changes.removed {
      removed[t.entity, default: []].append(t)
      if let target = t.value.stringValue, store.attrs[t.attr]?.isRef == true { removedByTarget[target, default: []].append(t) }
    }
  }

  var attrs: AttrStore { store.attrs }

  func attributes(of entity: String, etype: String) -> JSONObject? {
    let now = store.attributes(of: entity, etype: etype)
    let added = (self.added[entity] ?? []).filter { attrs[$0.attr]?.forwardIdentity.etype == etype }
    let removed = (self.removed[entity] ?? []).filter { attrs[$0.attr]?.forwardIdentity.etype == etype }
    guard !added.isEmpty || !removed.isEmpty else { return now }
    // It existed if it had a triple in `etype` that the transaction did not add, or one it removed.
    guard store.tripleCount(of: entity, etype: etype) > added.count || !removed.isEmpty else { return nil }
    var out = now ?? [:]
    for t in added {
      guard let attr = attrs[t.attr], attr.isCardinalityOne, out[attr.forwardIdentity.label] == t.value else { continue }
      out.removeValue(forKey: attr.forwardIdentity.label)
    }
    for t in removed {
      guard let attr = attrs[t.attr], attr.isCardinalityOne else { continue }
      out[attr.forwardIdentity.label] = t.value
    }
    return out
  }

  func targets(of entity: String, attr: String) -> [String] {
    var out = store.targets(of: entity, attr: attr)
    for t in added[entity] ?? [] where t.attr == attr { out.removeAll { $0 == t.value.stringValue } }
    for t in removed[entity] ?? [] where t.attr == attr { if let v = t.value.stringValue, !out.contains(v) { out.append(v) } }
    return out
  }

  func sources(linkingTo target: String, attr: String) -> [String] {
    var out = store.sources(linkingTo: target, attr: attr)
    for t in addedByTarget[target] ?? [] where t.attr == attr { out.removeAll { $0 == t.entity } }
    for t in removedByTarget[target] ?? [] where t.attr == attr && !out.contains(t.entity) { out.append(t.entity) }
    return out
  }
}
