import Foundation
import IdentifiedCollections
import InstantCore

/// The explicit writes that turn one snapshot of a collection into another, by id.
///
/// `old` is a value this key gave its `@Shared` (see ``EditWrites``), never the server's state, so
/// a key that shows a filtered or limited view can only delete what the user removed from it:
/// - an id only in `new` is created (its attributes, then its links);
/// - an id in both is updated with just the attributes that changed, strictly (`upsert: false`,
///   so an edit never brings back an entity someone else deleted);
/// - an id only in `old` is deleted;
/// - for each included link, ids added are linked and ids removed are unlinked (never deleted);
///   entities present on both sides are compared the same way, so a linked entity's unchanged
///   data is never sent, and an entity newly put in a link array is linked, not written.
enum EntityDiff {
  typealias Snapshot = OrderedDictionary<String, JSONObject>

  static func ops(namespace: String, node: QueryNode, old: Snapshot, new: Snapshot) -> [InstaMLOp] {
    var ops: [InstaMLOp] = []
    for (id, entity) in new {
      if let before = old[id] {
        changes(namespace: namespace, node: node, id: id, old: before, new: entity, into: &ops)
      } else {
        ops.append(.create(namespace, .id(id), attributes(entity, node).filter { !$0.value.isNull }))
        for (label, _) in node.links {
          let ids = Array(linked(entity[label]).keys)
          if !ids.isEmpty { ops.append(.link(namespace, .id(id), [label: .array(ids.map(JSON.string))])) }
        }
      }
    }
    for id in old.keys where new[id] == nil {
      ops.append(.delete(namespace, .id(id)))
    }
    return ops
  }

  private static func changes(
    namespace: String, node: QueryNode, id: String, old: JSONObject, new: JSONObject, into ops: inout [InstaMLOp]
  ) {
    let before = attributes(old, node)
    let after = attributes(new, node)
    var changed = JSONObject()
    for (name, value) in after where before[name] != value { changed[name] = value }
    for name in before.keys where after[name] == nil { changed[name] = .null }
    if !changed.isEmpty { ops.append(.update(namespace, .id(id), changed, upsert: false)) }

    for (label, child) in node.links {
      let was = linked(old[label])
      let now = linked(new[label])
      let added = now.keys.filter { was[$0] == nil }
      let removed = was.keys.filter { now[$0] == nil }
      if !added.isEmpty { ops.append(.link(namespace, .id(id), [label: .array(added.map(JSON.string))])) }
      if !removed.isEmpty { ops.append(.unlink(namespace, .id(id), [label: .array(removed.map(JSON.string))])) }
      guard let childNamespace = child.namespace else { continue }
      for (linkedID, entity) in now {
        guard let previous = was[linkedID] else { continue }
        changes(namespace: childNamespace, node: child, id: linkedID, old: previous, new: entity, into: &ops)
      }
    }
  }

  /// An entity as the JSON object its `Encodable` conformance writes.
  static func encode(_ entity: some Encodable) throws -> JSONObject {
    let data = try JSONEncoder().encode(entity)
    return try JSON.parse(String(decoding: data, as: UTF8.self)).objectValue ?? [:]
  }

  /// The entity's own attributes: everything but `id` and the included links.
  private static func attributes(_ entity: JSONObject, _ node: QueryNode) -> JSONObject {
    entity.filter { $0.key != "id" && node.links[$0.key] == nil }
  }

  /// The linked entities a link value holds (an object, an array of objects, or nothing), by id.
  private static func linked(_ value: JSON?) -> Snapshot {
    let objects: [JSONObject]
    switch value {
    case .object(let object): objects = [object]
    case .array(let array): objects = array.compactMap(\.objectValue)
    default: objects = []
    }
    var result = Snapshot()
    for object in objects { if let id = object["id"]?.stringValue { result[id] = object } }
    return result
  }
}

// MARK: - Which entities changed

/// Which entities differ between two values of a key, by id. An entity the edit did not touch is a
/// bit-for-bit copy of its counterpart (same string buffers, same numbers), which settles it
/// without `==`; only the others are compared with `==`, and only those are encoded, so a one-row
/// edit of a large collection encodes one row.
///
/// This code is generic over the app's entity type, so it compares in place: reading an element by
/// subscript would copy it (and retain each of its fields) just to compare it.
enum EntityChanges<Entity: EntityIdentifiable & Equatable> {
  typealias Value = IdentifiedArrayOf<Entity>

  /// The entities that differ between `base` and `value`, encoded: in `old` those of `base` that
  /// changed or are gone, in `new` those of `value` that changed or are new.
  static func encoded(from base: Value, to value: Value) throws -> (old: EntityDiff.Snapshot, new: EntityDiff.Snapshot) {
    var old = EntityDiff.Snapshot()
    var new = EntityDiff.Snapshot()
    try walk(from: base, to: value) { before, after in
      if let before { old[before.id] = try EntityDiff.encode(before) }
      if let after { new[after.id] = try EntityDiff.encode(after) }
      return true
    }
    return (old, new)
  }

  /// How many entities differ between `base` and `value` (changed, new or gone), counting no
  /// further than `limit`.
  static func count(from base: Value, to value: Value, limit: Int = .max) -> Int {
    var count = 0
    walk(from: base, to: value) { _, _ in
      count += 1
      return count < limit
    }
    return count
  }

  /// The ids of the entities that differ between `base` and `value`.
  static func ids(from base: Value, to value: Value) -> Set<Entity.ID> {
    var ids = Set<Entity.ID>()
    walk(from: base, to: value) { before, after in
      if let id = before?.id ?? after?.id { ids.insert(id) }
      return true
    }
    return ids
  }

  /// Calls `visit` with each pair that differs (`nil` on the side that lacks the entity) until it
  /// returns false. Rows at the same position under the same id (an edit in place, the common
  /// case) are compared position by position; only the rest is matched by id, which hashes.
  private static func walk(
    from base: Value, to value: Value, _ visit: (Entity?, Entity?) throws -> Bool
  ) rethrows {
    let (baseIDs, ids) = (base.ids, value.ids)
    let size = MemoryLayout<Entity>.size
    let (aligned, edited) = base.elements.withUnsafeBufferPointer { before in
      value.elements.withUnsafeBufferPointer { after in
        var aligned = 0
        var edited: [Int] = []
        while aligned < min(before.count, after.count), baseIDs[aligned] == ids[aligned] {
          let (x, y) = (before.baseAddress! + aligned, after.baseAddress! + aligned)
          if memcmp(x, y, size) != 0, x.pointee != y.pointee { edited.append(aligned) }
          aligned += 1
        }
        return (aligned, edited)
      }
    }
    for index in edited {
      guard try visit(base[index], value[index]) else { return }
    }
    guard aligned < max(baseIDs.count, ids.count) else { return }
    var kept = aligned
    for entity in value[aligned...] {
      guard let before = base[id: entity.id] else {
        guard try visit(nil, entity) else { return }
        continue
      }
      kept += 1
      guard before != entity else { continue }
      guard try visit(before, entity) else { return }
    }
    // Every id of `base` is still there: nothing was removed.
    guard kept < base.count else { return }
    for before in base[aligned...] where value[id: before.id] == nil {
      guard try visit(before, nil) else { return }
    }
  }
}
