import InstantCore

/// Reading the server's instaql result arrays (`add-query-ok.result`,
/// `refresh-ok.computations[].instaql-result`).
enum ServerResult {
  /// Every triple of every join-row of every node, recursing into `child-nodes`, as the
  /// reference's `extractTriples` does (row boundaries do not matter).
  static func triples(_ result: JSON) -> [JSON] {
    var out: [JSON] = []
    var stack: [JSON] = result.arrayValue ?? []
    while let node = stack.popLast() {
      if let rows = node["data"]?["datalog-result"]?["join-rows"]?.arrayValue {
        for row in rows { out.append(contentsOf: row.arrayValue ?? []) }
      }
      if let children = node["child-nodes"]?.arrayValue { stack.append(contentsOf: children.reversed()) }
    }
    return out
  }

  /// `result[0].data["page-info"]`, where the reference reads it.
  static func pageInfo(_ result: JSON) -> JSON? {
    guard let info = result[0]?["data"]?["page-info"], !info.isNull else { return nil }
    return info
  }
}
