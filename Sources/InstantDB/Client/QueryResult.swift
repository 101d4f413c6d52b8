public import InstantCore

/// One answer to a subscribed query: the data as InstantDB's JavaScript client shapes it, with
/// this device's pending writes applied on top.
public struct QueryResult: Sendable, Equatable {
  /// `{namespace: [entity, …]}` with nested links, as the reference client returns it.
  public var data: JSON
  /// `{namespace: {startCursor, endCursor, hasNextPage, hasPreviousPage}}` for paginated forms.
  public var pageInfo: JSON?
  /// Whether this answer comes from the local cache (saved earlier, or before the server has
  /// answered on this connection) rather than from a server result received on this connection.
  public var isFromCache: Bool
  /// The server refused the query (this subscription alone); `data` is the last good answer.
  public var error: InstantClientError?
  /// Whether any pending (not yet acknowledged) write of this device is applied to `data`.
  public var hasPendingWrites: Bool
  /// When the client made this answer, across all of its queries: an answer made later has a
  /// larger number. Two answers of one query can be put in order by it, however they reached
  /// the caller (a subscription, ``InstantClient/currentResult(_:)``). 0 for answers made
  /// elsewhere.
  public var sequence: Int

  public init(
    data: JSON, pageInfo: JSON? = nil, isFromCache: Bool, error: InstantClientError? = nil, hasPendingWrites: Bool,
    sequence: Int = 0
  ) {
    self.data = data
    self.pageInfo = pageInfo
    self.isFromCache = isFromCache
    self.error = error
    self.hasPendingWrites = hasPendingWrites
    self.sequence = sequence
  }
}
