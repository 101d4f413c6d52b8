import Foundation
import IdentifiedCollections
import InstantCore

/// The writes of one `withLock` edit, found from the values it may have started from
/// (``EditBases``).
///
/// With one possible start the edit is diffed against it. When a value reached the reference
/// after the closure, or the reference could not be read back (then the newest value it took
/// stands for what it holds), ``init(edit:startsBefore:newest:key:)`` picks the start row by row.
/// When the reference held something else (another thread's unsaved edit),
/// ``init(edit:starts:newest:key:)`` diffs the edit against the starts it differs from least
/// (the edit's own changes are few; a value it did not see differs from it by everything that
/// value brought too). In both cases only what all the diffs compared share is written
/// (``CommonWrites``). The value the edit started from is among them, so every write is one the
/// closure made. A change of the edit's that is also the difference between two of those values
/// (deleting a row that arrived at that moment, say) cannot be told from that arrival and is
/// withheld: another device's data is kept.
struct EditWrites<Entity: EntityIdentifiable & Equatable> {
  typealias Value = IdentifiedArrayOf<Entity>

  var ops: [InstaMLOp] = []
  /// Parts of the edit's likeliest diff that were not written because another possible start
  /// already had them or lacked them (see ``CommonWrites``).
  var withheld: [String] = []
  /// The newest value with the entities the edit changed taken from the edit: what the key shows
  /// when the reference holds a value that came after the closure, without the edit.
  var onNewest: Value?

  /// The writes of `edit`, which started from one of `starts`; `newest` is a value the reference
  /// took after the closure, if the key knows of one.
  init(edit: Value, starts: [Value], newest: Value?, key: EntityKey<Entity>) throws {
    let starts = Self.fitting(starts.isEmpty ? [Value()] : starts, edit: edit)
    guard starts.count > 1 || newest != nil else {
      ops = try Self.ops(from: starts[0], to: edit, key: key)
      return
    }
    var fewest = Int.max
    var counts: [Int] = []
    for start in starts {
      let count = EntityChanges.count(from: start, to: edit, limit: fewest == .max ? .max : fewest + 1)
      counts.append(count)
      fewest = min(fewest, count)
    }
    let likeliest = counts.lastIndex(of: fewest)!
    var compared = [starts[likeliest]]
    for index in counts.indices.reversed() where index != likeliest && counts[index] == fewest {
      compared.append(starts[index])
    }
    if let newest { compared.append(newest) }
    let diffs = try compared.map { try Self.ops(from: $0, to: edit, key: key) }
    (ops, withheld) = CommonWrites.common(diffs)
    var onNewest = newest ?? starts[starts.count - 1]
    for id in EntityChanges.ids(from: starts[likeliest], to: edit) {
      onNewest[id: id] = edit[id: id]
    }
    self.onNewest = onNewest
  }

  /// The writes of `edit`, made while the reference took `newest` after the closure: the edit
  /// started from one of `starts` (taken before `newest`, oldest first). That is the newest of them
  /// the edit agrees with (``isPlausible(_:among:edit:)``): the one taken just before the closure, unless
  /// the edit kept a row as an older value had it. Its diff is written, except what `newest`
  /// already has or lacks (``CommonWrites``) and a delete of an entity that a plausible start in
  /// `recent` (held since the instant given with it) lacked: the entity may have arrived from
  /// another device after the closure began. Not withheld is a delete of an entity this device's
  /// own write made after that start was first held (`ownWrite` says when this device last wrote
  /// one that may have created it): its arrival was that write's.
  init(
    edit: Value, startsBefore starts: [Value], recent: [(value: Value, since: ContinuousClock.Instant)]? = nil,
    newest: Value, key: EntityKey<Entity>,
    ownWrite: (_ etype: String, _ id: String) -> ContinuousClock.Instant? = { _, _ in nil }
  ) throws {
    let starts = starts.isEmpty ? [Value()] : starts
    let start = starts.last { Self.isPlausible($0, among: starts, edit: edit) } ?? starts[starts.count - 1]
    let own = try Self.ops(from: start, to: edit, key: key)
    var (common, withheld) = CommonWrites.common([own, try Self.ops(from: newest, to: edit, key: key)])
    if common.contains(where: { $0.action == .delete }) {
      // Only starts the reference held moments before the save: an older one, superseded long
      // ago, was not this closure's start unless the thread stalled that long.
      let plausible: [(value: Value, since: ContinuousClock.Instant?)] = starts.compactMap { start in
        guard Self.isPlausible(start, among: starts, edit: edit) else { return nil }
        guard let recent else { return (start, nil) }
        return recent.first { EditBases<Entity>.same($0.value, start) }.map { (start, $0.since) }
      }
      common.removeAll { op in
        guard op.action == .delete, op.etype == key.namespace, let id = op.entity.stringValue else { return false }
        let written = ownWrite(op.etype, id)
        let lacking = plausible.contains { start in
          guard start.value[id: id] == nil else { return false }
          guard let written, let since = start.since else { return true }
          return written < since
        }
        guard lacking else { return false }
        withheld.append("delete \(op.etype) \(op.entity)")
        return true
      }
    }
    (ops, self.withheld) = (common, withheld)
    var onNewest = newest
    for id in EntityChanges.ids(from: start, to: edit) { onNewest[id: id] = edit[id: id] }
    self.onNewest = onNewest
  }

  /// Whether `edit` may have started from `start`, one of `starts`: `start` lacks no entity the
  /// edit kept that another start holds, and no other start's version of a row is nearer, byte for
  /// byte, to the edit's (an untouched row is a copy of its start's; an edited one keeps its
  /// start's bytes in every field the edit did not set). Rows at the same position are compared
  /// in place; only rows that differ are looked for in the other starts.
  static func isPlausible(_ start: Value, among starts: [Value], edit: Value) -> Bool {
    guard starts.count > 1 else { return true }
    let (startIDs, editIDs) = (start.ids, edit.ids)
    for (index, row) in edit.enumerated() {
      let theirs = index < startIDs.count && startIDs[index] == editIDs[index] ? start[index] : start[id: row.id]
      guard let theirs else {
        if starts.contains(where: { $0[id: row.id] != nil }) { return false }
        continue
      }
      let distance = byteDistance(row, theirs)
      if distance == 0 { continue }
      // An edited row keeps the bytes of the fields the edit did not touch (the same string
      // buffers): another start whose version is nearer is where the row came from.
      if starts.contains(where: { other in other[id: row.id].map { byteDistance(row, $0) < distance } ?? false }) {
        return false
      }
    }
    return true
  }

  /// How many bytes of two entities' in-memory representations differ.
  private static func byteDistance(_ a: Entity, _ b: Entity) -> Int {
    withUnsafeBytes(of: a) { x in
      withUnsafeBytes(of: b) { y in
        if memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 { return 0 }
        return zip(x, y).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
      }
    }
  }

  /// Of `starts`, those holding every entity of `edit` that some start holds: the edit kept those
  /// from its start (an entity it made itself is in no start), so a value without one of them,
  /// older or newer, is not where it started. All of them when none fits.
  static func fitting(_ starts: [Value], edit: Value) -> [Value] {
    guard starts.count > 1 else { return starts }
    var kept = Set<Entity.ID>()
    for start in starts {
      for id in start.ids where edit[id: id] != nil { kept.insert(id) }
    }
    let fitting = starts.filter { start in kept.allSatisfy { start[id: $0] != nil } }
    return fitting.isEmpty ? starts : fitting
  }

  /// The writes that turn `base` into `edit`.
  static func ops(from base: Value, to edit: Value, key: EntityKey<Entity>) throws -> [InstaMLOp] {
    let (old, new) = try EntityChanges.encoded(from: base, to: edit)
    return EntityDiff.ops(namespace: key.namespace, node: key.query, old: old, new: new)
  }
}
