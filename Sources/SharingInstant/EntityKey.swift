/// A typed reference to an InstantDB namespace, generated as `Schema.<namespace>`.
///
/// It names the namespace and the Swift type its entities decode into. Query modifiers
/// (`where`, `orderBy`, `limit`, `with`) arrive with the sync layer; for now the key is a plain
/// value that generated code and tests can build and compare.
public struct EntityKey<Entity: EntityIdentifiable>: Sendable, Hashable {
  /// The InstantDB namespace, for example `"todos"`.
  public let namespace: String

  /// Creates a key for `namespace`, which should equal `Entity.namespace`.
  public init(namespace: String) {
    self.namespace = namespace
  }
}
