import IdentifiedCollections

extension Shared {
  /// Adds `entity` to the collection: one `create` (and `link`s for included links it holds).
  /// Resumes once the write is queued on this device.
  public func create<Entity>(_ entity: Entity) async throws where Value == IdentifiedArrayOf<Entity> {
    withLock { _ = $0.append(entity) }
    try await save()
  }

  /// Changes the entity `id`: one `update` of the attributes `modify` changed. Does nothing when
  /// the collection does not hold `id`.
  public func update<Entity>(id: Entity.ID, _ modify: (inout Entity) -> Void) async throws
  where Value == IdentifiedArrayOf<Entity> {
    withLock { collection in
      guard var entity = collection[id: id] else { return }
      modify(&entity)
      collection[id: id] = entity
    }
    try await save()
  }

  /// Removes the entity `id` from the collection: one `delete`.
  public func delete<Entity>(id: Entity.ID) async throws where Value == IdentifiedArrayOf<Entity> {
    withLock { _ = $0.remove(id: id) }
    try await save()
  }
}
