import IdentifiedCollections
import InstantCore

/// The writes of a `withLock` edit: the diff, entity by entity (``EntityDiff``), between the value
/// the edit started from and the value it left. A key knows that start exactly (see
/// `CollectionSession`); only the entities that differ are encoded.
enum EditWrites {
  /// The writes that turn `start` into `edit`.
  static func ops<Entity: EntityIdentifiable & Equatable>(
    from start: IdentifiedArrayOf<Entity>, to edit: IdentifiedArrayOf<Entity>, key: EntityKey<Entity>
  ) throws -> [InstaMLOp] {
    let (old, new) = try EntityChanges.encoded(from: start, to: edit)
    return EntityDiff.ops(namespace: key.namespace, node: key.query, old: old, new: new)
  }
}
