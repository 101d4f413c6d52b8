import OrderedCollections

/// What the server answers to `add-query`: the triples a client needs to evaluate the query
/// itself (docs/protocol.md, "What a result carries") and page info for paginated top-level forms.
package struct ServerQueryResult: Sendable, Equatable {
  /// Deduplicated, in a stable order.
  package var triples: [Triple]
  /// `{namespace: {"start-cursor", "end-cursor", "has-next-page?", "has-previous-page?"}}`, or
  /// `nil` when no top-level form paginates.
  package var pageInfo: JSON?

  /// The reference's `add-query-ok.result`: one node whose single join-row holds every triple.
  package var instaqlResult: JSON {
    var data: JSONObject = ["datalog-result": ["join-rows": .array([.array(triples.map(\.json))])]]
    if let pageInfo { data["page-info"] = pageInfo }
    return .array([["data": .object(data), "child-nodes": .array([])]])
  }

  /// The client's reading of an instaql result (`add-query-ok.result`,
  /// `refresh-ok.computations[].instaql-result`): every triple of every join-row of every node,
  /// recursing into `child-nodes`, as the reference client's `extractTriples` does (row
  /// boundaries do not matter). The reference server nests nodes; ``instaqlResult`` does not.
  package static func triples(in instaqlResult: JSON) -> [JSON] {
    var out: [JSON] = []
    var stack: [JSON] = instaqlResult.arrayValue ?? []
    while let node = stack.popLast() {
      if let rows = node["data"]?["datalog-result"]?["join-rows"]?.arrayValue {
        for row in rows { out.append(contentsOf: row.arrayValue ?? []) }
      }
      if let children = node["child-nodes"]?.arrayValue { stack.append(contentsOf: children.reversed()) }
    }
    return out
  }

  /// `result[0].data["page-info"]`, where the reference client reads it.
  package static func pageInfo(in instaqlResult: JSON) -> JSON? {
    guard let info = instaqlResult[0]?["data"]?["page-info"], !info.isNull else { return nil }
    return info
  }
}

extension TripleStore {
  /// Evaluates a query as the server does for a subscription: top-level forms are ordered and
  /// paginated (`limit`/`first`/`last`, `offset`, `before`/`after` cursors), nested forms return
  /// every matching child (their limits apply on the client), and the result holds, for each
  /// entity, its cardinality-one attrs (only `fields` when given, plus `id`), the triples that
  /// satisfied each `where`, and the link triples to its children, in stored orientation.
  ///
  /// Unknown namespaces, labels and attrs give empty results (apps subscribe before their first
  /// write creates the schema). Malformed options throw a validation error.
  package func serverQuery(_ q: JSON) throws(InstaQLError) -> ServerQueryResult {
    try ServerQueryValidator.validate(q)
    let run = ServerQueryRun(store: self)
    do throws(QueryFailure) {
      for (namespace, form) in JSObjects.entries(q) ?? [] where namespace != "$$ruleParams" {
        try run.topLevel(FormNode(etype: namespace, level: 0, form: form))
      }
    } catch {
      throw error.instaQLError
    }
    return ServerQueryResult(
      triples: run.records.map { triple(at: $0) }, pageInfo: run.pageInfo.isEmpty ? nil : .object(run.pageInfo))
  }
}

extension TripleStore {
  /// What ``serverQuery(_:)`` holds of the given entities of its top-level forms: each entity is
  /// evaluated alone, with the plan a whole evaluation runs and its own id bound, so the cost is
  /// what those entities cost. Only for queries whose result is made of such per-entity parts
  /// (``EntityLocalQuery``): pagination and child forms are not applied.
  package func serverQuery(_ q: JSON, entities ids: some Sequence<String>) throws(InstaQLError) -> [Triple] {
    try ServerQueryValidator.validate(q)
    let entities = ids.compactMap { symbols.lookup($0) }
    let run = ServerQueryRun(store: self)
    do throws(QueryFailure) {
      for (namespace, form) in JSObjects.entries(q) ?? [] where namespace != "$$ruleParams" {
        try run.topLevel(FormNode(etype: namespace, level: 0, form: form), only: entities)
      }
    } catch {
      throw error.instaQLError
    }
    return run.records.map { triple(at: $0) }
  }
}

final class ServerQueryRun {
  let store: TripleStore
  let query: QueryRun
  var records = OrderedSet<UInt32>()
  var pageInfo = JSONObject()
  /// (entity, form) pairs already included: a second visit would add only records already there,
  /// so a query that walks a link back and forth costs entities × levels, not paths (which grow
  /// exponentially with depth: a hostile client's cheapest way to stall the server).
  private var included = Set<Included>()
  /// The top-level forms run so far, kept alive for the whole run: ``included`` tells forms
  /// apart by identity, and a freed form's address (so its identity) can be given to the next
  /// one. (It was: a query of `users` and `$users` then lost the second namespace's attrs of an
  /// entity id both share.)
  private var roots: [FormNode] = []

  private struct Included: Hashable {
    let entity: UInt32
    let form: ObjectIdentifier
  }

  init(store: TripleStore) {
    self.store = store
    self.query = QueryRun(store: store)
  }

  /// The matching entities of a form (for one parent), each with the records that witnessed it.
  func answers(_ node: FormNode, parent: UInt32?) throws(QueryFailure) -> (DatalogRun, CompiledForm)? {
    let compiled: CompiledForm
    do throws(QueryFailure) {
      compiled = try query.compile(node)
    } catch {
      if case .attrNotFound = error { return nil }
      throw error
    }
    let run = DatalogRun(
      store: store, variableCount: compiled.variableCount, entityVar: compiled.entityVar, timeVar: compiled.timeVar)
    run.witnesses = [:]
    if let parentVar = compiled.parentVar, let parent { run.bindings[parentVar] = .key(.sym(parent)) }
    try run.run(compiled.plan)
    return (run, compiled)
  }

  /// How many rows a form's options keep from the front of its order when they are a plain count
  /// limit (`limit` or `first`; no `last`, offset or cursor), plus one to tell whether there are
  /// more; `nil` otherwise, or when that is every row.
  static func plainLimitWindow(_ options: QueryOptions, _ node: FormNode, count: Int) -> Int? {
    guard options.paginates, options.limitKey != "last", let limit = options.limit?.intValue, limit >= 0,
      limit + 1 < count, node.option("offset") == nil, node.option("after") == nil, node.option("before") == nil
    else { return nil }
    return limit + 1
  }

  func topLevel(_ node: FormNode) throws(QueryFailure) {
    roots.append(node)
    guard let (run, _) = try answers(node, parent: nil) else { return }
    // Order.
    let options = node.parsedOptions
    let descending = options.descending
    var orderAttr: Attr? = nil
    if let field = options.orderLabel, field != "serverCreatedAt", let attr = store.attrs.forward(node.etype, field),
      attr.forwardIdentity.label != "id"
    {
      orderAttr = attr
    }
    let sortAttr = orderAttr.map { SortAttr($0, store) }
    var rows: [(e: UInt32, v: JSValue, t: Double)] = []
    var seen = Set<UInt32>()
    for answer in run.answers where seen.insert(answer.e).inserted {
      rows.append((answer.e, query.sortValue(answer.e, answer.t, by: sortAttr), answer.t))
    }
    let dataType = orderAttr?.checkedDataType
    let ids = rows.map { query.uuidKey($0.e) }
    func before(_ i: Int, _ j: Int) -> Bool {
      let (x, y) = descending ? (j, i) : (i, j)
      let c = Ordering.compare(ids[x], rows[x].v, ids[y], rows[y].v, dataType: dataType)
      return c != 0 ? c < 0 : i < j
    }
    // A plain count limit needs only its first `limit` rows (and whether there is one more): they
    // are picked without sorting the rest, when the values compare consistently (then the
    // picked rows are exactly the first of the full order). A chat's newest 20 of thousands of
    // messages cost what 20 do, not a sort of all of them on every write.
    let indexed: [Int]
    if let window = Self.plainLimitWindow(options, node, count: rows.count),
      !query.needsReferenceOrder(rows.map { ($0.e, $0.v) }, dataType: dataType)
    {
      indexed = QueryRun.smallest(window, of: rows.indices, by: before)
    } else {
      indexed = rows.indices.sorted(by: before)
    }
    var sorted = indexed.map { rows[$0] }

    // Pagination.
    var hasPrevious = false
    var hasNext = false
    if options.paginates {
      let cursorAttr = orderAttr ?? store.attrs.primaryKey(node.etype)
      func position(_ row: (e: UInt32, v: JSValue, t: Double), _ cursor: JSON) -> Int {
        guard let cursorAttr else { return 0 }
        let key: JSValue = cursorAttr.forwardIdentity.label == "id" ? (row.t.isNaN ? .undefined : .number(row.t)) : row.v
        let c = query.compareToCursor(cursor, cursorAttr, row.e, key)
        return descending ? -c : c
      }
      if let after = node.option("after"), case .array = after {
        let inclusive = JSValue(node.option("afterInclusive")).isTruthy
        let before = sorted.count
        sorted.removeAll { inclusive ? position($0, after) < 0 : position($0, after) <= 0 }
        hasPrevious = sorted.count < before
      }
      if let beforeCursor = node.option("before"), case .array = beforeCursor {
        let inclusive = JSValue(node.option("beforeInclusive")).isTruthy
        let count = sorted.count
        sorted.removeAll { inclusive ? position($0, beforeCursor) > 0 : position($0, beforeCursor) >= 0 }
        hasNext = sorted.count < count
      }
      if let offset = node.option("offset")?.intValue, offset > 0 {
        hasPrevious = hasPrevious || !sorted.isEmpty
        sorted = Array(sorted.dropFirst(offset))
      }
      if let limit = options.limit?.intValue {
        if options.limitKey == "last" {
          if sorted.count > limit { hasPrevious = true }
          sorted = Array(sorted.suffix(limit))
        } else {
          if sorted.count > limit { hasNext = true }
          sorted = Array(sorted.prefix(limit))
        }
      }
      var info: JSONObject = ["has-next-page?": .bool(hasNext), "has-previous-page?": .bool(hasPrevious)]
      if let first = sorted.first, let cursorAttr { info["start-cursor"] = cursor(first.e, cursorAttr) }
      if let last = sorted.last, let cursorAttr { info["end-cursor"] = cursor(last.e, cursorAttr) }
      pageInfo[node.etype] = .object(info)
    }
    for row in sorted {
      for r in run.witnesses?[row.e] ?? [] { records.append(r) }
      try include(row.e, node)
    }
  }

  /// ``topLevel(_:)`` for the given entities only: each one's id is bound before the plan runs.
  func topLevel(_ node: FormNode, only entities: [UInt32]) throws(QueryFailure) {
    roots.append(node)
    let compiled: CompiledForm
    do throws(QueryFailure) {
      compiled = try query.compile(node)
    } catch {
      if case .attrNotFound = error { return }
      throw error
    }
    for e in entities {
      let run = DatalogRun(
        store: store, variableCount: compiled.variableCount, entityVar: compiled.entityVar, timeVar: compiled.timeVar)
      run.witnesses = [:]
      run.bindings[compiled.entityVar] = .key(.sym(e))
      try run.run(compiled.plan)
      guard !run.answers.isEmpty else { continue }
      for r in run.witnesses?[e] ?? [] { records.append(r) }
      try include(e, node)
    }
  }

  /// The triple a cursor points at: the entity's value of the order attr (its id triple when
  /// ordering by creation time).
  func cursor(_ e: UInt32, _ attr: Attr) -> JSON {
    if let a = store.symbols.lookup(attr.id), let r = store.slot(e, a)?.first {
      return store.triple(at: r).json
    }
    return .null
  }

  /// Adds an entity's own triples and its children's.
  func include(_ e: UInt32, _ node: FormNode) throws(QueryFailure) {
    guard included.insert(Included(entity: e, form: ObjectIdentifier(node))).inserted else { return }
    var allowed: Set<String>? = nil
    if case let .array(fields)? = node.option("fields") {
      allowed = Set(fields.compactMap(\.stringValue))
      allowed!.insert("id")
    }
    for slot in store.entitySlots(e) ?? [] {
      guard let attr = store.attrs[store.symbols[slot.attr]], attr.forwardIdentity.etype == node.etype else { continue }
      guard attr.isBlob || attr.isCardinalityOne else { continue }
      if let allowed, !(attr.isBlob && allowed.contains(attr.forwardIdentity.label)) { continue }
      slot.triples.forEach { records.append($0) }
    }
    for label in JSObjects.keys(node.form) where label != "$" {
      guard case let .node(child) = try query.childLink(node, label) else { continue }
      guard let (run, _) = try answers(child, parent: e) else { continue }
      var seen = Set<UInt32>()
      for answer in run.answers where seen.insert(answer.e).inserted {
        for r in run.witnesses?[answer.e] ?? [] { records.append(r) }
        try include(answer.e, child)
      }
    }
  }
}

/// The server's checks on query options (`db/instaql.clj` `coerce-option-map!`).
enum ServerQueryValidator {
  static let optionKeys: Set<String> = [
    "where", "order", "limit", "first", "last", "offset", "before", "after", "beforeInclusive", "afterInclusive",
    "fields", "aggregate",
  ]

  static func validate(_ q: JSON) throws(InstaQLError) {
    guard case let .object(namespaces) = q else { throw fail("the query must be an object of namespaces", []) }
    for (namespace, form) in namespaces where namespace != "$$ruleParams" {
      try validate(form, path: [namespace], topLevel: true)
    }
  }

  static func fail(_ message: String, _ path: [String]) -> InstaQLError { .invalidOption(path, message) }

  static func validate(_ form: JSON, path: [String], topLevel: Bool) throws(InstaQLError) {
    guard case let .object(o) = form else { throw fail("expected an object", path) }
    for (key, child) in o where key != "$" {
      try validate(child, path: path + [key], topLevel: false)
    }
    guard let options = o["$"] else { return }
    guard case let .object(opts) = options else { throw fail("$ must be an object", path) }
    for key in opts.keys where !optionKeys.contains(key) {
      throw fail("unknown option \(key)", path + ["$"])
    }
    var limits = 0
    for key in QueryOptions.limitKeys {
      guard let v = opts[key] else { continue }
      limits += 1
      guard let n = v.intValue, n > 0 else { throw fail("\(key) must be a positive integer", path + ["$", key]) }
    }
    if limits > 1 { throw fail("use only one of limit, first and last", path + ["$"]) }
    if let offset = opts["offset"] {
      guard let n = offset.intValue, n >= 0 else { throw fail("offset must be a non-negative integer", path + ["$", "offset"]) }
    }
    if !topLevel {
      for key in ["offset", "before", "after"] where opts[key] != nil {
        throw fail("\(key) is only supported on top-level namespaces", path + ["$", key])
      }
    }
    for key in ["before", "after"] {
      guard let cursor = opts[key] else { continue }
      guard case let .array(parts) = cursor, parts.count == 4 else {
        throw fail("\(key) must be a cursor [e, a, v, t] from page info", path + ["$", key])
      }
    }
    if let order = opts["order"] {
      guard case let .object(o) = order, o.count == 1, let direction = o.values.first?.stringValue,
        direction == "asc" || direction == "desc"
      else { throw fail("order must be {field: \"asc\" | \"desc\"}", path + ["$", "order"]) }
    }
    if let fields = opts["fields"] {
      guard case let .array(list) = fields, list.allSatisfy({ $0.stringValue != nil }) else {
        throw fail("fields must be an array of attribute names", path + ["$", "fields"])
      }
    }
    if let whereValue = opts["where"] {
      guard case .object = whereValue else { throw fail("where must be an object", path + ["$", "where"]) }
    }
  }
}
