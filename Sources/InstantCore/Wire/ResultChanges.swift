import OrderedCollections

/// What changed in a subscribed query's server result since the session was last sent it: the
/// triples that left it and those that joined it, its page info, and how many triples it holds
/// now (docs/protocol.md, "Result changes"). Sent in `refresh-ok` instead of the whole result to a
/// session that negotiated `result-changes`; a client applies it to the result it holds.
public struct ResultChanges: Sendable, Equatable {
  /// Triples no longer in the result, as they were sent.
  public var removed: [Triple]
  /// Triples new to the result (a triple whose time changed is removed and added).
  public var added: [Triple]
  /// The result's page info now, as in `add-query-ok` (`nil`: none).
  public var pageInfo: JSON?
  /// How many distinct triples the result holds after the change: a client whose result, changed,
  /// holds another number has lost step and asks for the whole result again.
  public var count: Int

  public init(removed: [Triple], added: [Triple], pageInfo: JSON?, count: Int) {
    self.removed = removed
    self.added = added
    self.pageInfo = pageInfo
    self.count = count
  }

  /// The changes that turn the result `old` into `new` (each a set of triples, as sent), or `nil`
  /// when there are none and the page info is the same.
  public static func between(
    _ old: Set<Triple>, _ new: Set<Triple>, oldPageInfo: JSON?, newPageInfo: JSON?
  ) -> ResultChanges? {
    var removed: [Triple] = []
    var added: [Triple] = []
    for triple in old where !new.contains(triple) { removed.append(triple) }
    for triple in new where !old.contains(triple) { added.append(triple) }
    guard !removed.isEmpty || !added.isEmpty || oldPageInfo != newPageInfo else { return nil }
    return ResultChanges(removed: removed, added: added, pageInfo: newPageInfo, count: new.count)
  }

  /// `{"removed": [[e, a, v, t], …], "added": […], "page-info": …, "count": n}`.
  public var json: JSON {
    var o: JSONObject = [
      "removed": .array(removed.map(\.json)), "added": .array(added.map(\.json)), "count": .number(Double(count)),
    ]
    if let pageInfo { o["page-info"] = pageInfo }
    return .object(o)
  }

  /// Reads ``json``; `nil` when a member is missing or a row is not a triple.
  public init?(json: JSON) {
    guard let removedRows = json["removed"]?.arrayValue, let addedRows = json["added"]?.arrayValue,
      let count = json["count"]?.intValue, count >= 0
    else { return nil }
    var removed: [Triple] = []
    var added: [Triple] = []
    removed.reserveCapacity(removedRows.count)
    added.reserveCapacity(addedRows.count)
    for row in removedRows {
      guard let triple = Triple(json: row) else { return nil }
      removed.append(triple)
    }
    for row in addedRows {
      guard let triple = Triple(json: row) else { return nil }
      added.append(triple)
    }
    let pageInfo = json["page-info"].flatMap { $0.isNull ? nil : $0 }
    self.init(removed: removed, added: added, pageInfo: pageInfo, count: count)
  }
}
