import Dependencies
import IdentifiedCollections
import InstantCore
import InstantDB

extension Shared {
  /// Links the entity `id` to `target` through the has-one link `keyPath` names (`\.owner`): one
  /// `link` op, which replaces the entity's previous target on the server. Resumes once the write
  /// is queued on this device; every key that includes the link shows it at once.
  ///
  /// The write goes through `client`, or `DependencyValues.defaultInstant` when it is nil — pass
  /// the same client as the key's when the key was given one.
  public func link<Entity: EntityIdentifiable, Target: EntityIdentifiable>(
    id: Entity.ID, _ keyPath: KeyPath<Entity, Target?>, to target: Target.ID, client: InstantClient? = nil
  ) async throws where Value == IdentifiedArrayOf<Entity> {
    try await linkWrite(.link, Entity.namespace, id, attributePath(of: keyPath), [target], client)
  }

  /// Adds `targets` to the has-many link `keyPath` names (`\.tags`) of the entity `id`: one
  /// `link` op. Resumes once the write is queued on this device.
  public func link<Entity: EntityIdentifiable, Target: EntityIdentifiable>(
    id: Entity.ID, _ keyPath: KeyPath<Entity, [Target]?>, to targets: [Target.ID], client: InstantClient? = nil
  ) async throws where Value == IdentifiedArrayOf<Entity> {
    try await linkWrite(.link, Entity.namespace, id, attributePath(of: keyPath), targets, client)
  }

  /// Removes the has-one link `keyPath` names between the entity `id` and `target`: one `unlink`
  /// op. Neither entity is deleted.
  public func unlink<Entity: EntityIdentifiable, Target: EntityIdentifiable>(
    id: Entity.ID, _ keyPath: KeyPath<Entity, Target?>, from target: Target.ID, client: InstantClient? = nil
  ) async throws where Value == IdentifiedArrayOf<Entity> {
    try await linkWrite(.unlink, Entity.namespace, id, attributePath(of: keyPath), [target], client)
  }

  /// Removes `targets` from the has-many link `keyPath` names of the entity `id`: one `unlink`
  /// op. No entity is deleted.
  public func unlink<Entity: EntityIdentifiable, Target: EntityIdentifiable>(
    id: Entity.ID, _ keyPath: KeyPath<Entity, [Target]?>, from targets: [Target.ID], client: InstantClient? = nil
  ) async throws where Value == IdentifiedArrayOf<Entity> {
    try await linkWrite(.unlink, Entity.namespace, id, attributePath(of: keyPath), targets, client)
  }

  /// Links by the link's label in the schema, for a link the entity type has no property for.
  public func link<Entity: EntityIdentifiable>(
    id: Entity.ID, _ label: String, to targets: [String], client: InstantClient? = nil
  ) async throws where Value == IdentifiedArrayOf<Entity> {
    try await linkWrite(.link, Entity.namespace, id, label, targets, client)
  }

  /// Unlinks by the link's label in the schema.
  public func unlink<Entity: EntityIdentifiable>(
    id: Entity.ID, _ label: String, from targets: [String], client: InstantClient? = nil
  ) async throws where Value == IdentifiedArrayOf<Entity> {
    try await linkWrite(.unlink, Entity.namespace, id, label, targets, client)
  }

  private func linkWrite(
    _ action: InstaMLOp.Action, _ namespace: String, _ id: String, _ label: String, _ targets: [String],
    _ client: InstantClient?
  ) async throws {
    guard !targets.isEmpty else { return }
    @Dependency(\.defaultInstant) var defaultInstant
    let ids: JSON = targets.count == 1 ? .string(targets[0]) : .array(targets.map(JSON.string))
    let op: InstaMLOp =
      action == .link ? .link(namespace, .id(id), [label: ids]) : .unlink(namespace, .id(id), [label: ids])
    try await (client ?? defaultInstant).transact(op)
  }
}
