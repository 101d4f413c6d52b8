/// The options of one level of an InstaQL query: `where`, `order`, `limit`, cursors, and the
/// links to include, each with options of its own.
public struct QueryNode: Sendable, Hashable {
  /// The InstaQL `where` object (attribute or dotted link path → value or operator).
  public var whereClause: JSONObject = [:]
  /// `order: {field: "asc" | "desc"}`.
  public var order: JSONObject = [:]
  public var limit: Int?
  public var first: Int?
  public var last: Int?
  public var after: JSON?
  public var before: JSON?
  /// The namespace of the linked entities at this level, when the link was added with a typed key path.
  public var namespace: String?
  /// Included links by label, in the order they were added.
  public var links: OrderedDictionary<String, QueryNode> = [:]

  public init(namespace: String? = nil) { self.namespace = namespace }

  /// This level as InstaQL: `{"$": {options}, link: {…}, …}`.
  public var instaQL: JSON {
    var options = JSONObject()
    if !whereClause.isEmpty { options["where"] = .object(whereClause) }
    if !order.isEmpty { options["order"] = .object(order) }
    if let limit { options["limit"] = .number(Double(limit)) }
    if let first { options["first"] = .number(Double(first)) }
    if let last { options["last"] = .number(Double(last)) }
    if let after { options["after"] = after }
    if let before { options["before"] = before }
    var node = JSONObject()
    if !options.isEmpty { node["$"] = .object(options) }
    for (label, child) in links { node[label] = child.instaQL }
    return .object(node)
  }
}
