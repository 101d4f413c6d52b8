import OrderedCollections

extension TripleStore {
  /// Runs an InstaQL query over this store with the reference client's semantics
  /// (`shared/spec/instaql.md`): namespaces, nested forward and reverse links, `where`, `order`,
  /// `limit`/`first`/`last`, cursors against `pageInfo` (the server's page info, keyed by
  /// namespace), and `fields`.
  ///
  /// Unknown namespaces, labels and attrs give empty results; a path or link through a blob attr
  /// and a `null` where value throw, as they do in JavaScript.
  public func query(_ q: JSON, pageInfo: JSON? = nil) throws(InstaQLError) -> InstaQLResult {
    do throws(QueryFailure) {
      let key = QueryKey(query: q)
      let plan: QueryPlan
      if let cached = plans.take(key, for: self) {
        plan = cached
      } else {
        guard let namespaces = JSObjects.entries(q) else {
          throw QueryFailure.error(.typeError("Cannot convert undefined or null to object", "the query is not an object"))
        }
        plan = QueryPlan(namespaces: namespaces.filter { $0.0 != "$$ruleParams" }, attrs: attrs)
      }
      defer { plans.put(key, plan) }
      let run = QueryRun(store: self, symbols: plan.symbols)
      var data = JSONObject(minimumCapacity: plan.namespaces.count)
      for (namespace, node) in plan.namespaces {
        let rows = try run.queryOne(node, parent: nil, pageInfo: JSObjects.get(pageInfo, namespace))
        data[namespace] = .array(rows)
      }
      var result = InstaQLResult(data: .object(data))
      if let pageInfo, JSValue(pageInfo).isTruthy {
        result.pageInfo = try Self.formatPageInfo(pageInfo)
      }
      return result
    } catch let failure {
      throw failure.instaQLError
    }
  }

  static func formatPageInfo(_ pageInfo: JSON) throws(QueryFailure) -> JSON {
    var out = JSONObject()
    for (namespace, info) in JSObjects.entries(pageInfo) ?? [] {
      if info.isNull {
        throw .error(
          .typeError("Cannot read properties of null (reading 'start-cursor')", "the page info of \(namespace) is null"))
      }
      var o = JSONObject()
      for (from, to) in [
        ("start-cursor", "startCursor"), ("end-cursor", "endCursor"), ("has-next-page?", "hasNextPage"),
        ("has-previous-page?", "hasPreviousPage"),
      ] {
        if let v = JSObjects.get(info, from) { o[to] = v }
      }
      out[namespace] = .object(o)
    }
    return .object(out)
  }
}
