import OrderedCollections

/// An answer (entity, creation time) with its time as an integer key and its id's UUID bits.
typealias TimeKeyed = (time: UInt64, hi: UInt64, lo: UInt64, e: UInt32, t: Double)

final class QueryRun {
  let store: TripleStore
  /// Where lookups whose results the form nodes keep are recorded.
  let symbols: SymbolDependencies

  init(store: TripleStore, symbols: SymbolDependencies = SymbolDependencies()) {
    self.store = store
    self.symbols = symbols
  }

  func uuidKey(_ e: UInt32) -> UUIDKey { store.uuidKey(e) }

  /// `queryOne`: the entities of a form, each extended with its children.
  func queryOne(_ node: FormNode, parent: UInt32?, pageInfo: JSON?) throws(QueryFailure)
    -> [JSON]
  {
    if node.form.isNull {
      throw .error(.typeError("Cannot read properties of null (reading '$')", "the form for \(node.etype) is null"))
    }
    let entities: [UInt32]
    let attrs: ObjectAttrs
    do throws(QueryFailure) {
      (entities, attrs) = try resolveEntities(node, parent: parent, pageInfo: pageInfo)
    } catch let failure {
      if case .attrNotFound = failure { return [] }
      throw failure
    }
    // Each object is built where it is used, so adding its links changes the only copy.
    let labels = node.labels
    var out: [JSON] = []
    out.reserveCapacity(entities.count)
    if labels.isEmpty {
      for e in entities { out.append(.object(object(e, attrs))) }
      return out
    }
    for e in entities {
      var object = object(e, attrs)
      for label in labels {
        let singular = isSingular(node, label)
        let link = try childLink(node, label)
        guard case let .node(child) = link else {
          object[label] = singular ? absentSingular : .array([])
          continue
        }
        let rows = try queryOne(child, parent: e, pageInfo: nil)
        if singular {
          object[label] = rows.first ?? absentSingular
        } else {
          object[label] = .array(rows)
        }
      }
      out.append(.object(object))
    }
    return out
  }

  /// What a has-one link with nothing linked is: left out, or `null` on the server.
  var absentSingular: JSON? { store.absentSingularLinkIsNull ? .null : nil }

  func isSingular(_ node: FormNode, _ label: String) -> Bool {
    guard store.cardinalityInference else { return false }
    if let cached = node.singularCache[label] { return cached }
    let value = store.attrs.isSingularLink(node.etype, label)
    node.singularCache[label] = value
    return value
  }

  func childLink(_ node: FormNode, _ label: String) throws(QueryFailure) -> ChildLink {
    if let link = node.children[label] { return link }
    var compiler = WhereCompiler(store: store, symbols: symbols)
    let link: ChildLink
    do throws(QueryFailure) {
      let step = try compiler.linkPattern(VariableNamer(), node.etype, node.level, label)
      let form = JSObjects.get(node.form, label) ?? .null
      link = .node(
        FormNode(etype: step.nextEtype, level: node.level + 1, form: form, parent: (node.etype, node.level, label)))
    } catch let failure {
      if case .attrNotFound = failure {
        link = .missing
      } else {
        throw failure
      }
    }
    node.children[label] = link
    return link
  }

  func compile(_ node: FormNode) throws(QueryFailure) -> CompiledForm {
    if let compiled = node.compiled { return try compiled.get() }
    let result = Result<CompiledForm, QueryFailure> { () throws(QueryFailure) -> CompiledForm in
      var compiler = WhereCompiler(store: store, symbols: symbols)
      var clauses: [Clause] = []
      var parentVar: Int? = nil
      if let parent = node.parent {
        // The join `[parent, attr, ?child]` (or reversed); the parent's variable is bound per parent.
        let step = try compiler.linkPattern(VariableNamer(), parent.etype, parent.level, parent.label)
        clauses.append(.pattern(step.pattern))
        parentVar = compiler.variables.named("?\(parent.etype)-\(parent.level)")
      }
      let whereValue = node.option("where")
      var simple: SimpleForm? = nil
      if let whereValue, JSValue(whereValue).isTruthy {
        clauses.append(contentsOf: try compiler.parseWhere(VariableNamer(), node.etype, node.level, whereValue))
      } else {
        var join: UInt32? = nil
        var forward = true
        if case let .pattern(p)? = clauses.first {
          join = p.a
          if case .variable = p.e, let parentVar, case let .variable(e) = p.e, e == parentVar { forward = true } else {
            forward = false
          }
        }
        simple = SimpleForm(idAttr: nil, joinAttr: join, joinForward: forward)
      }
      let id = try compiler.idPattern(node.etype, node.level)
      simple?.idAttr = id.a
      clauses.append(.pattern(id))
      guard case let .variable(entityVar) = id.e else { preconditionFailure("an id pattern binds a variable") }
      let bound: Set<Int> = parentVar.map { [$0] } ?? []
      let planned = Planner.plan(clauses, bound: bound).clauses
      return CompiledForm(
        plan: DatalogStep.chain(planned), written: clauses, variableCount: compiler.variables.count,
        entityVar: entityVar, timeVar: id.t, parentVar: parentVar, simple: simple)
    }
    node.compiled = result
    return try result.get()
  }

  /// The reference's `resolveObjects` up to its objects: the entities a form selects for one
  /// parent, sorted, deduplicated, windowed by cursors and limited, with how to build their objects.
  func resolveEntities(_ node: FormNode, parent: UInt32?, pageInfo: JSON?)
    throws(QueryFailure) -> ([UInt32], ObjectAttrs)
  {
    let startCursor = JSObjects.get(pageInfo, "start-cursor")
    let endCursor = JSObjects.get(pageInfo, "end-cursor")
    if !node.parsedOptions.isLeading && !(pageInfo.map { JSValue($0).isTruthy } ?? false && JSValue(startCursor).isTruthy) {
      return ([], objectAttrs(node))
    }
    let compiled = try compile(node)
    // Ordered by time (no cursor, no value to order by): answers in the order they were added
    // are usually sorted already.
    let byTime = (startCursor.map { !JSValue($0).isTruthy } ?? true) && orderAttrs(node).sort == nil
    let answers = try self.answers(compiled, parent: parent, inAddedOrder: byTime)
    let options = node.parsedOptions
    let ascending = options.ascending
    let descending = options.descending
    let orderAttr: Attr?
    let sortAttr: SortAttr?
    if let startCursor, JSValue(startCursor).isTruthy {
      if let attrId = JSObjects.get(startCursor, "1")?.stringValue { orderAttr = store.attrs[attrId] } else { orderAttr = nil }
      let orderByValue = orderAttr.map { $0.forwardIdentity.label != "id" } ?? false
      sortAttr = orderByValue ? orderAttr.map { SortAttr($0, store) } : nil
    } else {
      (orderAttr, sortAttr) = orderAttrs(node)
    }
    let orderByValue = orderAttr.map { $0.forwardIdentity.label != "id" } ?? false
    let dataType = orderAttr?.checkedDataType
    let orderAttrSym = sortAttr?.sym
    let isDate = orderAttr?.isDate ?? false

    func sortKey(_ e: UInt32, _ t: Double) -> (e: UInt32, v: JSValue) { (e, sortValue(e, t, by: sortAttr)) }
    func compareKeys(_ x: (e: UInt32, v: JSValue), _ y: (e: UInt32, v: JSValue)) -> Int {
      ascending
        ? Ordering.compare(uuidKey(x.e), x.v, uuidKey(y.e), y.v, dataType: dataType)
        : Ordering.compare(uuidKey(y.e), y.v, uuidKey(x.e), x.v, dataType: dataType)
    }
    var keys: [(e: UInt32, v: JSValue)]
    var repeats = false
    // A leading form with a plain count limit keeps only its first `limit` answers: on the paths
    // whose ids are all UUIDs (no reordering after the sort, no duplicates) only those are sorted.
    var first: Int? = nil
    if options.isLeading, case let .number(n)? = options.limit, n >= 1, n < Double(answers.count), n == n.rounded() {
      first = Int(n)
    }
    if !orderByValue, let sorted = sortedByTime(answers, ascending: ascending, first: first) {
      keys = sorted.map { ($0.e, $0.t.isNaN ? JSValue.undefined : .number($0.t)) }
    } else if orderByValue, !isDate, dataType != "string", let a = orderAttrSym, let numeric = numericKeys(answers, a),
      let sorted = sortedByTime(numeric, ascending: ascending, first: first)
    {
      // Numbers (or missing/null) only: the same comparison without JavaScript values.
      keys = sorted.map { ($0.e, $0.t.isNaN ? JSValue.undefined : .number($0.t)) }
    } else {
      keys = answers.map { sortKey($0.e, $0.t) }
      var sorted: [(e: UInt32, v: JSValue)]? = nil
      if !needsReferenceOrder(keys, dataType: dataType) {
        // Distinct values can still tie (ICU ignores some characters); ties keep the reference's
        // input order, so they also need the reference path.
        var tied = false
        var indices = Array(keys.indices)
        if let strings = StringSortKeys(keys, dataType: dataType, store: store) {
          indices.sort { i, j in
            let c = ascending ? strings.compare(i, j) : strings.compare(j, i)
            if c == 0 && keys[i].e != keys[j].e { tied = true }
            return c != 0 ? c < 0 : i < j
          }
        } else {
          indices.sort { i, j in
            let c = compareKeys(keys[i], keys[j])
            if c == 0 && keys[i].e != keys[j].e { tied = true }
            return c != 0 ? c < 0 : i < j
          }
        }
        if !tied { sorted = indices.map { keys[$0] } }
      }
      if let sorted {
        keys = sorted
      } else {
        // JavaScript's comparator is inconsistent over these values, so V8's answer depends on its
        // input order and algorithm: reproduce both.
        let reference = ReferenceOrderRun(store: store, variableCount: compiled.variableCount)
        var initial = [Bound](repeating: .unbound, count: compiled.variableCount)
        if let parentVar = compiled.parentVar, let parent { initial[parentVar] = .key(.sym(parent)) }
        let contexts = try reference.run(compiled.written, initial: initial)
        let answers = contexts.compactMap { context -> (e: UInt32, t: Double)? in
          guard case let .key(.sym(e)) = context[compiled.entityVar] else { return nil }
          if case let .time(t) = context[compiled.timeVar] { return (e, t) }
          return (e, .nan)
        }
        keys = answers.map { sortKey($0.e, $0.t) }
        keys = V8Sort.sort(keys, by: compareKeys)
        repeats = true
      }
    }

    // Deduplicate, window by cursors (non-leading only), limit, then build the objects that remain.
    let leading = options.isLeading
    // Answers name each entity once (one id triple per entity), except on the reference path.
    var seen: Set<UInt32>? = repeats ? Set(minimumCapacity: keys.count) : nil
    var entities: [UInt32] = []
    entities.reserveCapacity(keys.count)
    for (e, v) in keys {
      if let seen, seen.contains(e) { continue }
      if !leading, let orderAttr {
        if let startCursor, JSValue(startCursor).isTruthy {
          let c = compareToCursor(startCursor, orderAttr, e, v)
          if descending ? c > 0 : c < 0 { continue }
        }
        if let endCursor, JSValue(endCursor).isTruthy {
          let c = compareToCursor(endCursor, orderAttr, e, v)
          if descending ? c < 0 : c > 0 { continue }
        }
      }
      seen?.insert(e)
      entities.append(e)
    }
    reorderIntegerLikeIds(&entities)

    // Limit: `limit || first || last`, applied when not nullish.
    if let limit = options.limit, !JSValue(limit).isNullish {
      let count = JSValue.number(Double(entities.count))
      if !(count <= JSValue(limit)) {
        let end = Self.sliceEnd(JSValue(limit), count: entities.count)
        entities = Array(entities.prefix(end))
      }
    }
    return (entities, objectAttrs(node))
  }

  /// The attr of the form's `order` and, unless it is the id attr, how to sort by it.
  func orderAttrs(_ node: FormNode) -> (attr: Attr?, sort: SortAttr?) {
    if let cached = node.orderCache { return cached }
    var result: (attr: Attr?, sort: SortAttr?) = (nil, nil)
    if let label = node.parsedOptions.orderLabel, let attr = store.attrs.forward(node.etype, label) {
      result = (attr, attr.forwardIdentity.label != "id" ? SortAttr(attr, sym: symbols.lookup(attr.id, in: store)) : nil)
    }
    node.orderCache = result
    return result
  }

  /// The value an answer sorts by: its first value of the order attr (a date made comparable), or
  /// its creation time when the form is ordered by time.
  func sortValue(_ e: UInt32, _ t: Double, by attr: SortAttr?) -> JSValue {
    guard let attr else { return t.isNaN ? .undefined : .number(t) }
    var v: JSValue = .undefined
    if let a = attr.sym, let first = store.slot(e, a)?.first { v = store.jsValue(store.records[Int(first)].v) }
    return attr.isDate ? Ordering.comparableDate(v) : v
  }

  /// Every `(entity, created-at)` answer of a form for one parent.
  func answers(_ compiled: CompiledForm, parent: UInt32?, inAddedOrder: Bool) throws(QueryFailure)
    -> [(e: UInt32, t: Double)]
  {
    if let simple = compiled.simple { return simpleAnswers(simple, parent: parent, inAddedOrder: inAddedOrder) }
    let run = DatalogRun(
      store: store, variableCount: compiled.variableCount, entityVar: compiled.entityVar, timeVar: compiled.timeVar)
    if let parentVar = compiled.parentVar, let parent { run.bindings[parentVar] = .key(.sym(parent)) }
    try run.run(compiled.plan)
    return run.answers
  }

  /// The answers of `[parent, link, ?e] [?e, id, ?e, ?t]` (or just the id pattern) read from the
  /// indexes directly.
  func simpleAnswers(_ simple: SimpleForm, parent: UInt32?, inAddedOrder: Bool) -> [(e: UInt32, t: Double)] {
    guard let idAttr = simple.idAttr else { return [] }
    var out: [(e: UInt32, t: Double)] = []
    func addIfMember(_ e: UInt32) {
      guard let list = store.slot(e, idAttr) else { return }
      list.forEach { r in
        let rec = store.records[Int(r)]
        if rec.v == .sym(e) { out.append((e, rec.t)) }
      }
    }
    guard let parent else {
      // `inAddedOrder`: in the order the triples were added (the index's own order is its
      // hashing's), which is usually time order, so sorting the answers by time finds them sorted.
      let byValue = store.aev[idAttr] ?? [:]
      out.reserveCapacity(byValue.count)
      guard inAddedOrder else {
        for (_, list) in byValue {
          list.forEach { r in if let answer = idAnswer(r) { out.append(answer) } }
        }
        return out
      }
      var records: [UInt32] = []
      records.reserveCapacity(byValue.count)
      for (_, list) in byValue { list.forEach { records.append($0) } }
      Self.sortDistinct(&records)
      for r in records { if let answer = idAnswer(r) { out.append(answer) } }
      return out
    }
    guard let join = simple.joinAttr else { return [] }
    if simple.joinForward {
      store.slot(parent, join)?.forEach { r in
        if let child = store.records[Int(r)].v.sym { addIfMember(child) }
      }
    } else {
      store.aev[join]?[.sym(parent)]?.forEach { r in addIfMember(store.records[Int(r)].e) }
    }
    return out
  }

  /// Sorts distinct record indices. When they are dense in their range (a namespace's records
  /// usually are), a bitmap over the range puts them in order with no comparisons: a scan of
  /// range/64 words against the ~n log n comparisons of `sort()`, a twelfth of a whole-namespace
  /// read's instructions.
  static func sortDistinct(_ values: inout [UInt32]) {
    guard values.count > 32, let low = values.min(), let high = values.max(), Int(high - low) / 64 < 4 * values.count
    else {
      values.sort()
      return
    }
    var bits = [UInt64](repeating: 0, count: Int(high - low) / 64 + 1)
    for v in values {
      let offset = Int(v - low)
      bits[offset >> 6] |= 1 << UInt64(offset & 63)
    }
    var i = 0
    for (w, word) in bits.enumerated() {
      var rest = word
      while rest != 0 {
        values[i] = low + UInt32(w * 64 + rest.trailingZeroBitCount)
        i += 1
        rest &= rest - 1
      }
    }
  }

  /// The answer an id record gives: its entity and time, when it names its own entity.
  @inline(__always)
  func idAnswer(_ r: UInt32) -> (e: UInt32, t: Double)? {
    let rec = store.records[Int(r)]
    return rec.v == .sym(rec.e) ? (rec.e, rec.t) : nil
  }

  /// Each answer's first value of `attr` as a number (NaN when missing or null); `nil` as soon as
  /// a value is anything else.
  func numericKeys(_ answers: [(e: UInt32, t: Double)], _ attr: UInt32) -> [(e: UInt32, t: Double)]? {
    var out: [(e: UInt32, t: Double)] = []
    out.reserveCapacity(answers.count)
    for (e, _) in answers {
      guard let r = store.slot(e, attr)?.first else {
        out.append((e, .nan))
        continue
      }
      switch store.records[Int(r)].v {
      case let .number(n): out.append((e, n))
      case .null: out.append((e, .nan))
      default: return nil
      }
    }
    return out
  }

  /// Sorts answers by creation time with a uuid tie-break when every id is a UUID: the common
  /// case, without JavaScript values. `nil` when the general comparator is needed.
  /// With `first`, only the first `first` of that order, chosen without sorting the rest.
  func sortedByTime(_ answers: [(e: UInt32, t: Double)], ascending: Bool, first: Int? = nil) -> [(e: UInt32, t: Double)]? {
    if answers.count <= 1 {
      // Nothing to order; only the ids must be UUIDs, as below.
      for (e, _) in answers where !(Int(e) < store.entityUUID.count && store.entityUUID[Int(e)].isValid) { return nil }
      return answers
    }
    var keyed: [TimeKeyed] = []
    keyed.reserveCapacity(answers.count)
    for (e, t) in answers {
      let bits = Int(e) < store.entityUUID.count ? store.entityUUID[Int(e)] : .invalid
      guard bits.isValid else { return nil }
      keyed.append((Self.timeOrderKey(t), bits.hi, bits.lo, e, t))
    }
    if let first, first <= 64 {
      return Self.smallest(first, of: keyed) { ascending ? Self.order($0) < Self.order($1) : Self.order($0) > Self.order($1) }.map { ($0.e, $0.t) }
    }
    // Answers often come in time order already (an attr's entities in the order they were added).
    if ascending ? Self.isSorted(keyed, by: <) : Self.isSorted(keyed, by: >) { return answers }
    // In ascending order with no two keys equal, the descending order is the reverse.
    if !ascending, Self.isSorted(keyed, by: <=) { return answers.reversed() }
    // Stable, so ids that parse to the same bits keep their input order, as before.
    if ascending {
      keyed.sort { Self.order($0) < Self.order($1) }
    } else {
      keyed.sort { Self.order($0) > Self.order($1) }
    }
    return keyed.map { ($0.e, $0.t) }
  }

  /// What orders an answer by time: its time as an integer, then its id's UUID bits.
  @inline(__always)
  static func order(_ x: TimeKeyed) -> (UInt64, UInt64, UInt64) { (x.time, x.hi, x.lo) }

  /// Whether no element of `keyed` comes `before` the one preceding it, by (time, hi, lo): with
  /// `<` or `>`, whether a stable sort would leave it as it is; with `<=`, whether it is strictly
  /// ascending.
  static func isSorted(
    _ keyed: [TimeKeyed], by before: ((UInt64, UInt64, UInt64), (UInt64, UInt64, UInt64)) -> Bool
  ) -> Bool {
    for i in keyed.indices.dropFirst() where before(order(keyed[i]), order(keyed[i - 1])) { return false }
    return true
  }

  /// The first `k` of `items` in the stable order `before` defines (a strict weak order): a
  /// sorted window that each element enters after its equals, so ties keep input order as a
  /// stable sort does. O(n log k) comparisons instead of a sort of all of them.
  static func smallest<Element>(_ k: Int, of items: some Sequence<Element>, by before: (Element, Element) -> Bool)
    -> [Element]
  {
    var window: [Element] = []
    window.reserveCapacity(k + 1)
    for item in items {
      if window.count == k, let last = window.last, !before(item, last) { continue }
      var lo = 0
      var hi = window.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if before(item, window[mid]) { hi = mid } else { lo = mid + 1 }
      }
      window.insert(item, at: lo)
      if window.count > k { window.removeLast() }
    }
    return window
  }

  /// Orders times as integers: NaN (no time) first, then by value, with -0 equal to 0.
  static func timeOrderKey(_ t: Double) -> UInt64 {
    if t.isNaN { return 0 }
    let bits = (t == 0 ? 0 : t).bitPattern
    return bits >> 63 == 0 ? bits | (1 << 63) : ~bits
  }

  /// Whether JavaScript's comparator could be inconsistent over these sort keys (mixed strings and
  /// non-strings, objects, NaN) or tie distinct entities (ids that are not UUIDs).
  func needsReferenceOrder(_ keys: [(e: UInt32, v: JSValue)], dataType: String?) -> Bool {
    // Values of one primitive type compare consistently; across types JavaScript coerces, and
    // values that coerce equal without being `===` (true and 1, "5" and 5) compare both ways.
    var sawString = false
    var sawNumber = false
    var sawBool = false
    for (e, v) in keys {
      switch v {
      case .undefined, .null: break
      case .string: sawString = true
      case let .number(n): if n.isNaN { return true } else { sawNumber = true }
      case .bool: sawBool = true
      case .object: if dataType != "string" { return true }
      }
      if !store.uuidKey(e).bits.isValid { return true }
    }
    let kinds = (sawString ? 1 : 0) + (sawNumber ? 1 : 0) + (sawBool ? 1 : 0)
    if dataType != "string" { return kinds > 1 }
    // ICU collation compares ToString values, and calls canonically equivalent strings equal:
    // distinct values that tie there keep their input order, which is the reference's.
    var byCollationKey: [String: JSValue] = [:]
    for (_, v) in keys where !v.isNullish {
      let text = v.toJSString
      if let seen = byCollationKey[text] {
        if !seen.strictEquals(v) { return true }
      } else {
        byCollationKey[text] = v
      }
    }
    return false
  }

  /// `Array.prototype.slice(0, end)`'s end index.
  static func sliceEnd(_ end: JSValue, count: Int) -> Int {
    let n = end.toNumber
    if n.isNaN { return 0 }
    if n == .infinity { return count }
    if n == -.infinity { return 0 }
    let i = Int(n.rounded(.towardZero))
    return i < 0 ? max(count + i, 0) : min(i, count)
  }

  /// `compareToCursor`: rows compare with the cursor `[e, a, v, t]` by (created-at, id) when the
  /// cursor's attr is an id attr, otherwise by (value, id).
  func compareToCursor(_ cursor: JSON, _ orderAttr: Attr, _ e: UInt32, _ v: JSValue) -> Int {
    let ce = UUIDKey(JSValue(JSObjects.get(cursor, "0")).toJSString)
    if orderAttr.forwardIdentity.label == "id" {
      return Ordering.compare(uuidKey(e), v, ce, JSValue(JSObjects.get(cursor, "3")), dataType: nil)
    }
    let dataType = orderAttr.checkedDataType
    var cv = JSValue(JSObjects.get(cursor, "2"))
    var rv = v
    if dataType == "date" {
      rv = Ordering.comparableDate(rv)
      cv = Ordering.comparableDate(cv)
    }
    return Ordering.compare(uuidKey(e), rv, ce, cv, dataType: dataType)
  }

  /// JavaScript objects list integer-like keys first, ascending; ids like "1" and "2" move there.
  func reorderIntegerLikeIds(_ entities: inout [UInt32]) {
    var integerLike: [(UInt32, Int)] = []
    for (i, e) in entities.enumerated() {
      // A UUID is never an array index.
      if Int(e) < store.entityUUID.count, store.entityUUID[Int(e)].isValid { continue }
      if let n = JSObjects.arrayIndex(store.symbols[e]) { integerLike.append((n, i)) }
    }
    guard !integerLike.isEmpty else { return }
    let first = integerLike.sorted { $0.0 < $1.0 }.map(\.1)
    let firstSet = Set(first)
    let order = first + entities.indices.filter { !firstSet.contains($0) }
    entities = order.map { entities[$0] }
  }

  /// The blob attrs an entity object shows: `fields` (blob labels only, plus `id`) or all.
  func objectAttrs(_ node: FormNode) -> ObjectAttrs {
    if let cached = node.objectAttrsCache { return cached }
    let attrs = computeObjectAttrs(node)
    let result = ObjectAttrs(labels: attrs.map(\.0), syms: attrs.map(\.1))
    node.objectAttrsCache = result
    return result
  }

  func computeObjectAttrs(_ node: FormNode) -> [(String, UInt32)] {
    var chosen: [(String, Attr)] = []
    if case let .array(fields)? = node.option("fields") {
      var labels: [String: Int] = [:]
      for field in fields {
        guard case let .string(name) = field, let attr = store.attrs.forward(node.etype, name), attr.isBlob else {
          continue
        }
        let label = attr.forwardIdentity.label
        if let i = labels[label] { chosen[i] = (label, attr) } else {
          labels[label] = chosen.count
          chosen.append((label, attr))
        }
      }
      if labels["id"] == nil, let idAttr = store.attrs.forward(node.etype, "id") {
        chosen.append((idAttr.forwardIdentity.label, idAttr))
      }
    } else if let blobs = store.attrs.blobAttrs(node.etype) {
      chosen = blobs.map { ($0.key, $0.value) }
    }
    return chosen.compactMap { label, attr in symbols.lookup(attr.id, in: store).map { (label, $0) } }
  }

  /// `getAsObject`: each selected attr's value (the last one when there are several).
  func object(_ e: UInt32, _ attrs: ObjectAttrs) -> JSONObject {
    guard let slots = store.entitySlots(e) else { return [:] }
    var values: [JSON] = []
    values.reserveCapacity(attrs.syms.count)
    var present: UInt64 = 0
    let shareable = attrs.syms.count <= 64
    var own: [String] = []
    // Slots are read in place: iterating the array would copy each slot, value list included.
    slots.withUnsafeBufferPointer { slots in
      for (i, a) in attrs.syms.enumerated() {
        for j in slots.indices where slots[j].attr == a {
          if let r = slots[j].triples.last {
            values.append(store.json(store.records[Int(r)].v))
            if shareable { present |= 1 << UInt64(i) } else { own.append(attrs.labels[i]) }
          }
          break
        }
      }
    }
    if shareable { own = attrs.labels(present: present) }
    // The labels are distinct (``computeObjectAttrs``), so no key needs checking.
    return JSONObject(uncheckedUniqueKeys: own, values: values)
  }
}
