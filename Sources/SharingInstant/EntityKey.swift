/// A typed reference to an InstantDB namespace, generated as `Schema.<namespace>`, with the query
/// options that `.instantSync` and `.instantQuery` send:
///
/// ```swift
/// Schema.todos.where(\.done, .eq(false)).orderBy(\.createdAt, .desc).limit(20).with(\.owner)
/// ```
///
/// Each modifier returns a modified copy; every option reaches the InstaQL query (``instaQL``).
public struct EntityKey<Entity: EntityIdentifiable>: Sendable, Hashable {
  /// The InstantDB namespace, for example `"todos"`.
  public let namespace: String
  /// The options of the query's top level.
  public var query: QueryNode

  /// Creates a key for `namespace`, which should equal `Entity.namespace`.
  public init(namespace: String) {
    self.namespace = namespace
    query = QueryNode(namespace: namespace)
  }

  /// The InstaQL query: `{namespace: {"$": {…}, links…}}`.
  public var instaQL: JSON { .object([namespace: query.instaQL]) }
}
