import OrderedCollections

/// The answer to an entity-local query (``EntityLocalQuery``) kept current row by row: when a few
/// entities change, only their rows are evaluated again and moved to their place, so an answer
/// of 10,000 rows costs what the changed rows cost, not a whole evaluation.
///
/// It holds only while its order is one the engine sorts by a total key — creation time, or a
/// number (`order` on an attribute whose values are numbers or missing), with the id's UUID as
/// the tie-break — which is ``TripleStore/query(_:pageInfo:)``'s own fast path. Anything else
/// (strings, dates, ids that are not UUIDs, two rows with one key) answers `nil`, and the caller
/// evaluates the query whole, as before.
package struct LiveRows: Sendable {
  /// A row's place: (time or number, id's UUID bits), compared as a tuple.
  typealias Key = (UInt64, UInt64, UInt64)

  package let q: JSON
  let namespace: String
  let form: JSON
  let ascending: Bool
  private var keys: [Key] = []
  private(set) var rows: [JSON] = []
  /// Each row's key by id, to find its place by a binary search.
  private var keyByID: [String: Key] = [:]

  /// Takes the answer a whole evaluation of `q` gave over `store` (`nil` when the query or its
  /// order cannot be kept this way).
  package init?(_ q: JSON, answer: InstaQLResult, store: TripleStore) {
    guard let local = EntityLocalQuery(q, attrs: store.attrs), case let .object(forms) = q,
      let form = forms[local.namespace], case let .array(rows) = answer.data[local.namespace] ?? .null
    else { return nil }
    self.q = q
    self.namespace = local.namespace
    self.form = form
    let node = FormNode(etype: namespace, level: 0, form: form)
    guard node.parsedOptions.isLeading, node.parsedOptions.limit == nil else { return nil }
    ascending = !node.parsedOptions.descending
    let run = QueryRun(store: store)
    keys.reserveCapacity(rows.count)
    for row in rows {
      guard let id = row["id"]?.stringValue, let e = store.symbols.lookup(id), let key = Self.key(e, node, run) else {
        return nil
      }
      if let last = keys.last, !before(last, key) { return nil }
      keys.append(key)
      keyByID[id] = key
    }
    self.rows = rows
  }

  /// The answer's data, `{namespace: rows}`.
  package var data: JSON { .object([namespace: .array(rows)]) }

  /// Evaluates the rows of `touched` entities again over `store` and puts each in its place:
  /// whether any row changed, or `nil` when a row's place cannot be found this way (then evaluate
  /// whole, and start over from that answer).
  package mutating func update(_ touched: Set<String>, in store: TripleStore) -> Bool? {
    guard !touched.isEmpty else { return false }
    let node = FormNode(etype: namespace, level: 0, form: form)
    let run = QueryRun(store: store)
    let compiled: CompiledForm
    do {
      compiled = try run.compile(node)
    } catch {
      return nil
    }
    let attrs = run.objectAttrs(node)
    var changed = false
    for id in touched {
      // Its row now, if it matches.
      var new: (key: Key, row: JSON)? = nil
      if let e = store.symbols.lookup(id) {
        let datalog = DatalogRun(
          store: store, variableCount: compiled.variableCount, entityVar: compiled.entityVar, timeVar: compiled.timeVar)
        datalog.bindings[compiled.entityVar] = .key(.sym(e))
        do {
          try datalog.run(compiled.plan)
        } catch {
          return nil
        }
        if datalog.answers.count > 1 { return nil }
        if !datalog.answers.isEmpty {
          guard let key = Self.key(e, node, run) else { return nil }
          new = (key, .object(run.object(e, attrs)))
        }
      }
      // Its row before, found by its old key.
      let old = position(of: id)
      if let old, let new, keys[old] == new.key {
        if rows[old] != new.row {
          rows[old] = new.row
          changed = true
        }
        continue
      }
      if let old {
        keys.remove(at: old)
        rows.remove(at: old)
        keyByID[id] = nil
        changed = true
      }
      if let new {
        let place = insertionPoint(new.key)
        // Two rows with one key: their order is the input order's, which this does not know.
        if place < keys.count, keys[place] == new.key { return nil }
        keys.insert(new.key, at: place)
        rows.insert(new.row, at: place)
        keyByID[id] = new.key
        changed = true
      }
    }
    return changed
  }

  /// Where the row of `id` is: keys are sorted and distinct, so its key's place.
  private func position(of id: String) -> Int? {
    guard let key = keyByID[id] else { return nil }
    let place = insertionPoint(key)
    return place < keys.count && keys[place] == key ? place : nil
  }

  private func before(_ a: Key, _ b: Key) -> Bool { ascending ? a < b : a > b }

  private func insertionPoint(_ key: Key) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let mid = (low + high) / 2
      if before(keys[mid], key) { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The key ``TripleStore/query(_:pageInfo:)`` sorts `e` by on its fast path: (creation time or
  /// the order attribute's number, the id's UUID bits); `nil` off that path.
  static func key(_ e: UInt32, _ node: FormNode, _ run: QueryRun) -> Key? {
    let store = run.store
    guard Int(e) < store.entityUUID.count, store.entityUUID[Int(e)].isValid else { return nil }
    let bits = store.entityUUID[Int(e)]
    let (attr, sort) = run.orderAttrs(node)
    guard let sort, let attr else {
      // By creation time: the time of its id triple.
      guard let idAttr = store.attrs.primaryKey(node.etype), let a = store.symbols.lookup(idAttr.id),
        let r = store.slot(e, a)?.first
      else { return nil }
      return (QueryRun.timeOrderKey(store.records[Int(r)].t), bits.hi, bits.lo)
    }
    guard !attr.isDate, attr.checkedDataType != "string", let a = sort.sym else { return nil }
    var n = Double.nan
    if let r = store.slot(e, a)?.first {
      switch store.records[Int(r)].v {
      case let .number(value): n = value
      case .null: break
      default: return nil
      }
    }
    return (QueryRun.timeOrderKey(n), bits.hi, bits.lo)
  }
}
