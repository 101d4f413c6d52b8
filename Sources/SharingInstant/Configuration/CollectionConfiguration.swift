import InstantCore

/// The seeds' configuration form of a collection key, for code written against the original
/// sharing-instant: `.instantSync(configuration: .init(namespace: "todos", orderBy: .desc("createdAt")))`.
/// New code should prefer the typed ``EntityKey`` (`Schema.todos.orderBy(\.createdAt, .desc)`),
/// which every configuration becomes (``SharingInstantSync/CollectionConfiguration/entityKey``).
public enum SharingInstantSync {
  /// What a collection key queries.
  ///
  /// Unlike the original, `limit` is sent (the original's sync configuration had none), and
  /// `where` is InstaQL JSON rather than `[String: Any]`. SwiftUI `animation` and `testingValue`
  /// are not here: tests and previews get an offline client (`DependencyValues.defaultInstant`)
  /// whose keys start from the value the property is declared with.
  public struct CollectionConfiguration<Entity: EntityIdentifiable & Equatable>: Sendable, Hashable {
    /// The namespace; the entity's own by default.
    public var namespace: String
    public var orderBy: OrderBy?
    /// The InstaQL `where` object, for example `["done": false]` or `["title": ["$like": "%milk%"]]`.
    public var whereClause: JSONObject?
    /// Link labels to include (without options of their own).
    public var includedLinks: [String]
    public var limit: Int?

    public init(
      namespace: String = Entity.namespace, orderBy: OrderBy? = nil, whereClause: JSONObject? = nil,
      includedLinks: [String] = [], limit: Int? = nil
    ) {
      self.namespace = namespace
      self.orderBy = orderBy
      self.whereClause = whereClause
      self.includedLinks = includedLinks
      self.limit = limit
    }

    /// The typed key this configuration stands for.
    public var entityKey: EntityKey<Entity> {
      var key = EntityKey<Entity>(namespace: namespace)
      key.query.whereClause = whereClause ?? [:]
      if let orderBy { key = key.orderBy(orderBy.field, orderBy.isDescending ? .desc : .asc) }
      if let limit { key = key.limit(limit) }
      for label in includedLinks { key = key.with(label) }
      return key
    }
  }

  /// A custom request type for `.instantSync(_:)` / `.instantQuery(_:)`: anything that can say
  /// which configuration it queries. (The original allowed a `nil` configuration, meaning "no
  /// query"; here a request always names one.)
  public protocol KeyCollectionRequest<Element>: Sendable {
    associatedtype Element: EntityIdentifiable & Equatable
    var configuration: CollectionConfiguration<Element> { get }
  }
}

/// The read-only counterparts' names, as in the original.
public enum SharingInstantQuery {
  public typealias Configuration<Entity: EntityIdentifiable & Equatable> = SharingInstantSync.CollectionConfiguration<Entity>
  public typealias KeyRequest = SharingInstantSync.KeyCollectionRequest
}

/// An ordering for configurations: `.asc("createdAt")`, `.desc("createdAt")`.
public struct OrderBy: Sendable, Hashable {
  public var field: String
  public var isDescending: Bool

  public init(field: String, isDescending: Bool) {
    self.field = field
    self.isDescending = isDescending
  }

  public static func asc(_ field: String) -> OrderBy { OrderBy(field: field, isDescending: false) }
  public static func desc(_ field: String) -> OrderBy { OrderBy(field: field, isDescending: true) }
}
