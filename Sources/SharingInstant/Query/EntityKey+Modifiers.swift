extension EntityKey {
  /// Keeps entities whose attribute (or dotted link path) matches `predicate`; a second
  /// condition on the same path replaces the first.
  public func `where`<V>(_ keyPath: KeyPath<Entity, V>, _ predicate: EntityKeyPredicate) -> Self {
    self.where(attributePath(of: keyPath), predicate)
  }

  /// Keeps entities whose attribute or dotted link path (`"owner.email"`) matches `predicate`.
  public func `where`(_ path: String, _ predicate: EntityKeyPredicate) -> Self {
    var copy = self
    copy.query.whereClause[path] = predicate.instaQL
    return copy
  }

  /// Keeps entities matching every clause (`and`) or any of them (`or`), each built on a fresh key.
  public func `where`(or clauses: [(Self) -> Self]) -> Self { combined("or", clauses) }
  public func `where`(and clauses: [(Self) -> Self]) -> Self { combined("and", clauses) }

  private func combined(_ op: String, _ clauses: [(Self) -> Self]) -> Self {
    let fresh = EntityKey(namespace: namespace)
    var copy = self
    copy.query.whereClause[op] = .array(clauses.map { .object($0(fresh).query.whereClause) })
    return copy
  }

  /// Orders by an indexed attribute.
  public func orderBy<V>(_ keyPath: KeyPath<Entity, V>, _ direction: EntityKeyOrderDirection = .asc) -> Self {
    orderBy(attributePath(of: keyPath), direction)
  }

  public func orderBy(_ field: String, _ direction: EntityKeyOrderDirection = .asc) -> Self {
    var copy = self
    copy.query.order = [field: .string(direction.rawValue)]
    return copy
  }

  /// At most `count` entities (with `orderBy`, the first `count` in that order).
  public func limit(_ count: Int) -> Self {
    var copy = self
    copy.query.limit = count
    return copy
  }

  /// Cursor pagination: the first `count` entities after `cursor` (a `pageInfo` cursor).
  public func first(_ count: Int, after cursor: JSON? = nil) -> Self {
    var copy = self
    copy.query.first = count
    copy.query.after = cursor
    return copy
  }

  /// Cursor pagination: the last `count` entities before `cursor`.
  public func last(_ count: Int, before cursor: JSON? = nil) -> Self {
    var copy = self
    copy.query.last = count
    copy.query.before = cursor
    return copy
  }

  /// Includes a has-one link.
  public func with<V: EntityIdentifiable>(
    _ keyPath: KeyPath<Entity, V?>, _ build: (EntityKey<V>) -> EntityKey<V> = { $0 }
  ) -> Self {
    including(attributePath(of: keyPath), build(EntityKey<V>(namespace: V.namespace)).query)
  }

  /// Includes a has-many link, with its own `where`, `orderBy`, `limit` and links.
  public func with<V: EntityIdentifiable>(
    _ keyPath: KeyPath<Entity, [V]?>, _ build: (EntityKey<V>) -> EntityKey<V> = { $0 }
  ) -> Self {
    including(attributePath(of: keyPath), build(EntityKey<V>(namespace: V.namespace)).query)
  }

  /// Includes a link by its label, when no key path names it.
  public func with(_ label: String) -> Self { including(label, QueryNode()) }

  private func including(_ label: String, _ node: QueryNode) -> Self {
    var copy = self
    copy.query.links[label] = node
    return copy
  }
}
