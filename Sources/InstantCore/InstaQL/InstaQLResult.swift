import OrderedCollections

/// The result of an InstaQL query, as the reference client's `query()` returns it.
public struct InstaQLResult: Sendable, Equatable {
  /// `{namespace: [entity, …]}`.
  public var data: JSON
  /// `{namespace: {startCursor, endCursor, hasNextPage, hasPreviousPage}}`, present when the
  /// query was given server page info.
  public var pageInfo: JSON?

  /// `{"data": …}` plus `"pageInfo"` when present.
  public var json: JSON {
    var o: JSONObject = ["data": data]
    if let pageInfo { o["pageInfo"] = pageInfo }
    return .object(o)
  }
}
