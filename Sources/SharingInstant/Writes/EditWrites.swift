import IdentifiedCollections
import InstantCore

/// The writes of a `withLock` edit: the diff, entity by entity (``EntityDiff``), between the value
/// the edit started from and the value it left. A key knows that start exactly (see
/// `CollectionSession`); only the entities that differ are encoded.
enum EditWrites {
  /// The writes that turn `start` into `edit`, and the ids of the entities that differ.
  static func ops<Entity: EntityIdentifiable & Equatable>(
    from start: IdentifiedArrayOf<Entity>, to edit: IdentifiedArrayOf<Entity>, key: EntityKey<Entity>
  ) throws -> (ops: [InstaMLOp], changed: Set<String>) {
    let (old, new) = try EntityChanges.encoded(from: start, to: edit)
    let ops = EntityDiff.ops(namespace: key.namespace, node: key.query, old: old, new: new)
    return (ops, Set(old.keys).union(new.keys))
  }
}
