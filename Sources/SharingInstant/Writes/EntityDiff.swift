import Foundation
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
