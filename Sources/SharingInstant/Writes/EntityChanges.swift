import Foundation
import IdentifiedCollections

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
