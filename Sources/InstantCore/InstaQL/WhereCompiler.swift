import OrderedCollections

/// Names datalog variables exactly as the reference does (`?<etype>-<level>`, with a per-branch
/// suffix inside `or`/`and`), because two where clauses that reach the same etype at the same level
/// share one variable: they must be satisfied by the same linked entity.
struct VariableTable {
  private(set) var names: [String: Int] = [:]
  private(set) var count = 0

  mutating func named(_ name: String) -> Int {
    if let i = names[name] { return i }
    let i = count
    names[name] = i
    count += 1
    return i
  }

  mutating func fresh() -> Int {
    count += 1
    return count - 1
  }
}

/// `makeVar`: the variable name for an etype at a level, in some branch.
struct VariableNamer {
  /// (join symbol, branch index) from the outermost `or`/`and` inwards.
  var branches: [(join: String, index: Int)] = []

  func name(_ etype: String, _ level: Int) -> String {
    var name = "?\(etype)-\(level)"
    for branch in branches where branch.join != name {
      name += "-\(branch.index)"
    }
    return name
  }

  func branch(join: String, index: Int) -> VariableNamer {
    var copy = self
    copy.branches.append((join, index))
    return copy
  }
}

/// Compiles InstaQL `where` objects into datalog clauses, following the reference's
/// `parseWhere` step by step (instaql.md §4.1), errors included.
struct WhereCompiler {
  let store: TripleStore
  /// Every symbol lookup goes through here: compiled forms are kept only while these still hold.
  let symbols: SymbolDependencies
  var variables = VariableTable()

  init(store: TripleStore, symbols: SymbolDependencies) {
    self.store = store
    self.symbols = symbols
  }

  mutating func variable(_ namer: VariableNamer, _ etype: String, _ level: Int) -> Int {
    variables.named(namer.name(etype, level))
  }

  func attrSymbol(_ attr: Attr) -> UInt32? { symbols.lookup(attr.id, in: store) }

  func existingKey(_ value: JSON) -> ValueKey? { symbols.existingKey(value, in: store) }

  /// The `[?e, idAttr, ?e, ?time]` pattern that makes namespace membership mandatory.
  mutating func idPattern(_ etype: String, _ level: Int) throws(QueryFailure) -> Pattern {
    guard let idAttr = store.attrs.primaryKey(etype) else {
      throw .attrNotFound("Could not find id attr for \(etype)")
    }
    let e = variables.named("?\(etype)-\(level)")
    return Pattern(e: .variable(e), a: attrSymbol(idAttr), v: .variable(e), t: variables.named("?time-\(level)"))
  }

  /// One link step of a path: `[?a-L, attr, ?b-L+1]` forward or `[?b-L+1, attr, ?a-L]` reverse.
  mutating func linkPattern(_ namer: VariableNamer, _ etype: String, _ level: Int, _ label: String)
    throws(QueryFailure) -> (nextEtype: String, pattern: Pattern, attr: Attr, isForward: Bool)
  {
    let fwd = store.attrs.forward(etype, label)
    guard let attr = fwd ?? store.attrs.reverse(etype, label) else {
      throw .attrNotFound("Could not find attr for \(etype).\(label)")
    }
    guard attr.isRef else { throw .error(.notALink(attr)) }
    guard let reverse = attr.reverseIdentity else {
      throw .error(.typeError("attr \(attr.id) has no reverse-identity", "the link \(attr.qualifiedName) has no reverse side"))
    }
    let fwdEtype = attr.forwardIdentity.etype
    let revEtype = reverse.etype
    let pattern: Pattern
    if fwd != nil {
      pattern = Pattern(
        e: .variable(variable(namer, fwdEtype, level)), a: attrSymbol(attr),
        v: .variable(variable(namer, revEtype, level + 1)), t: variables.fresh())
    } else {
      pattern = Pattern(
        e: .variable(variable(namer, fwdEtype, level + 1)), a: attrSymbol(attr),
        v: .variable(variable(namer, revEtype, level)), t: variables.fresh())
    }
    return (fwd != nil ? revEtype : fwdEtype, pattern, attr, fwd != nil)
  }

  mutating func parseWhere(_ namer: VariableNamer, _ etype: String, _ level: Int, _ whereValue: JSON)
    throws(QueryFailure) -> [Clause]
  {
    var clauses: [Clause] = []
    guard let entries = JSObjects.entries(whereValue) else {
      throw .error(.typeError("Cannot convert undefined or null to object", "where is null; use an object"))
    }
    for (key, rawValue) in entries {
      var value = rawValue
      if key == "or" || key == "and", case let .array(branches) = value {
        let join = namer.name(etype, level)
        var compiled: [[Clause]] = []
        for (i, branch) in branches.enumerated() {
          compiled.append(try parseWhere(namer.branch(join: join, index: i), etype, level, branch))
        }
        if key == "or" {
          clauses.append(.or(compiled, join: variables.named(join)))
        } else {
          clauses.append(contentsOf: compiled.joined())
        }
        continue
      }
      if key == "$entityIdStartsWith" { continue }
      let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      if case var .object(o) = value, let ne = o["$ne"] {
        o["$not"] = ne
        o.removeValue(forKey: "$ne")
        value = .object(o)
      }
      if case let .object(o) = value, o["$not"] != nil {
        let notPatterns = try conditionPatterns(namer, etype, level, path, value)
        var branches = [notPatterns]
        for prefix in 1...path.count {
          branches.append(try conditionPatterns(namer, etype, level, Array(path[0..<prefix]), ["$isNull": true]))
        }
        clauses.append(.or(branches, join: variable(namer, etype, level)))
        continue
      }
      if case let .object(o) = value, o["$isNull"] == .bool(true), path.count > 1 {
        var branches: [[Clause]] = []
        for prefix in 1...path.count {
          branches.append(try conditionPatterns(namer, etype, level, Array(path[0..<prefix]), ["$isNull": true]))
        }
        clauses.append(.or(branches, join: variable(namer, etype, level)))
        continue
      }
      clauses.append(contentsOf: try conditionPatterns(namer, etype, level, path, value))
    }
    return clauses
  }

  /// `whereCondAttrPats`: the link steps of the path, then the value condition.
  mutating func conditionPatterns(
    _ namer: VariableNamer, _ etype: String, _ level: Int, _ path: [String], _ value: JSON
  ) throws(QueryFailure) -> [Clause] {
    var clauses: [Clause] = []
    var currentEtype = etype
    var currentLevel = level
    for label in path.dropLast() {
      let step = try linkPattern(namer, currentEtype, currentLevel, label)
      clauses.append(.pattern(step.pattern))
      currentEtype = step.nextEtype
      currentLevel += 1
    }
    clauses.append(.pattern(try valuePattern(namer, currentEtype, currentLevel, path.last ?? "", value)))
    return clauses
  }

  /// `valueAttrPat`.
  mutating func valuePattern(_ namer: VariableNamer, _ etype: String, _ level: Int, _ label: String, _ value: JSON)
    throws(QueryFailure) -> Pattern
  {
    let fwd = store.attrs.forward(etype, label)
    guard let attr = fwd ?? store.attrs.reverse(etype, label) else {
      throw .attrNotFound("No attr for etype = \(etype) label = \(label)")
    }
    if case let .object(o) = value, let isNull = o["$isNull"] {
      guard let idAttr = store.attrs.forward(etype, "id") else {
        throw .attrNotFound("No attr for etype = \(etype) label = id")
      }
      return Pattern(
        e: .variable(variable(namer, etype, level)), a: attrSymbol(idAttr),
        v: .isNull(attr: attrSymbol(attr), isNull: JSValue(isNull).isTruthy, reverse: fwd == nil),
        t: variables.fresh())
    }
    if fwd != nil {
      return Pattern(
        e: .variable(variable(namer, etype, level)), a: attrSymbol(attr), v: try valueTerm(attr, value),
        t: variables.fresh())
    }
    let entity: EntityTerm
    if case let .string(s) = value, let e = symbols.lookup(s, in: store) { entity = .entity(e) } else { entity = .nothing }
    return Pattern(e: entity, a: attrSymbol(attr), v: .variable(variable(namer, etype, level)), t: variables.fresh())
  }

  /// `parseValue` followed by how `triplesByValue` and `matchPart` treat the result.
  func valueTerm(_ attr: Attr, _ value: JSON) throws(QueryFailure) -> ValueTerm {
    switch value {
    case .null:
      throw .error(
        .typeError(
          "Cannot read properties of null (reading 'hasOwnProperty')",
          "\(attr.qualifiedName) is compared with null; use {\"$isNull\": true}"))
    case .string, .number, .bool:
      return .equals(existingKey(value).map { [$0] } ?? [])
    case .array:
      return .nothing
    case let .object(o):
      if o["$in"] == nil && o["in"] == nil {
        let isDate = attr.isDate
        for op in ["$gt", "$gte", "$lt", "$lte"] {
          guard let operand = o[op] else { continue }
          return .compare(ValuePredicate.comparison(op, operand, isDate: isDate))
        }
        if let pattern = o["$like"] { return .compare(ValuePredicate.like(pattern, caseSensitive: true)) }
        if let pattern = o["$ilike"] { return .compare(ValuePredicate.like(pattern, caseSensitive: false)) }
      }
      if let operand = o["$not"] { return .not(existingKey(operand)) }
      if let c = o["$comparator"], JSValue(c).isTruthy {
        return .failing(.typeError("undefined is not a function", "$comparator is not supported"))
      }
      var candidates: JSON? = nil
      for key in ["in", "$in"] {
        if let c = o[key], JSValue(c).isTruthy {
          candidates = c
          break
        }
      }
      guard let candidates else {
        // `[v]`: an object is never a stored key.
        return .nothing
      }
      switch candidates {
      case let .array(items):
        return .equals(items.compactMap { existingKey($0) })
      case let .string(s):
        return .equals(s.unicodeScalars.compactMap { existingKey(.string(String($0))) })
      default:
        return .failing(.typeError("values is not iterable", "$in on \(attr.qualifiedName) needs a list of values"))
      }
    }
  }
}

extension ValuePredicate {
  /// `$gt`, `$gte`, `$lt`, `$lte` with JavaScript's relational operators; for `date` attrs
  /// both sides go through `new Date(...)`.
  static func comparison(_ op: String, _ operand: JSON, isDate: Bool) -> ValuePredicate {
    let rhs = JSValue(operand)
    if isDate {
      let r = JSDate.timeValue(rhs)
      return ValuePredicate { stored in
        let l = JSDate.timeValue(stored)
        switch op {
        case "$gt": return l > r
        case "$gte": return l >= r
        case "$lt": return l < r
        default: return l <= r
        }
      }
    }
    return ValuePredicate { stored in
      switch op {
      case "$gt": return stored > rhs
      case "$gte": return stored >= rhs
      case "$lt": return stored < rhs
      default: return stored <= rhs
      }
    }
  }

  /// SQL LIKE as the reference implements it: `%` any run, `_` one UTF-16 unit, everything else
  /// literal; anchored; `%`/`_` match newlines too. Non-string patterns or values never match.
  static func like(_ pattern: JSON, caseSensitive: Bool) -> ValuePredicate {
    guard case let .string(p) = pattern else { return ValuePredicate { _ in false } }
    let matcher = LikeMatcher(pattern: p, caseSensitive: caseSensitive)
    return ValuePredicate { stored in
      guard case let .string(s) = stored else { return false }
      return matcher.matches(s)
    }
  }
}

/// JavaScript's own-enumerable-property order for the values a query can hold.
enum JSObjects {
  /// `Object.entries(value)`; `nil` for null (a TypeError in JavaScript).
  static func entries(_ value: JSON) -> [(String, JSON)]? {
    switch value {
    case .null: return nil
    case .bool, .number: return []
    case let .string(s): return s.utf16.enumerated().map { ("\($0.offset)", .string(String(utf16CodeUnits: [$0.element]))) }
    case let .array(a): return a.enumerated().map { ("\($0.offset)", $0.element) }
    case let .object(o): return orderedKeys(o).map { ($0, o[$0]!) }
    }
  }

  /// `Object.keys`: integer-like keys first in ascending order, then the rest in insertion order.
  static func orderedKeys(_ o: JSONObject) -> [String] {
    var indices: [(UInt32, String)] = []
    var rest: [String] = []
    for key in o.keys {
      if let n = arrayIndex(key) { indices.append((n, key)) } else { rest.append(key) }
    }
    if indices.isEmpty { return rest }
    return indices.sorted { $0.0 < $1.0 }.map(\.1) + rest
  }

  static func arrayIndex(_ key: String) -> UInt32? {
    guard !key.isEmpty, key.utf8.count <= 10, key.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    if key.count > 1 && key.hasPrefix("0") { return nil }
    guard let n = UInt64(key), n < 4_294_967_295 else { return nil }
    return UInt32(n)
  }

  /// `value[key]` for property reads on query options (`form.$.limit` and the like).
  static func get(_ value: JSON?, _ key: String) -> JSON? {
    guard let value else { return nil }
    switch value {
    case let .object(o): return o[key]
    case let .array(a):
      if key == "length" { return .number(Double(a.count)) }
      if let i = arrayIndex(key), Int(i) < a.count { return a[Int(i)] }
      return nil
    case let .string(s):
      let units = Array(s.utf16)
      if key == "length" { return .number(Double(units.count)) }
      if let i = arrayIndex(key), Int(i) < units.count { return .string(String(utf16CodeUnits: [units[Int(i)]])) }
      return nil
    default: return nil
    }
  }

  /// `Object.keys(value)`.
  static func keys(_ value: JSON) -> [String] {
    (entries(value) ?? []).map(\.0)
  }
}

extension String {
  init(utf16CodeUnits units: [UInt16]) {
    self = String(decoding: units, as: UTF16.self)
  }
}
