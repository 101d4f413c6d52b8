import OrderedCollections

/// A transaction the server refuses, shaped like the reference's `error` (status 400).
public struct TransactionError: Error, CustomStringConvertible, Equatable, Sendable {
  /// `validation-failed`, `record-not-unique`, `record-not-found`, `permission-denied`, …
  public var type: String
  public var message: String
  public var hint: JSON
  public var description: String { "\(type): \(message)" }

  public init(_ type: String, _ message: String, hint: JSON = .object([:])) {
    self.type = type
    self.message = message
    self.hint = hint
  }

  static func invalid(_ message: String, step: JSON? = nil) -> TransactionError {
    var errors: JSONObject = ["message": .string(message)]
    if let step { errors["in"] = step }
    return TransactionError(
      "validation-failed", "Validation failed for tx-steps: \(message)",
      hint: ["data-type": "tx-steps", "errors": .array([.object(errors)])])
  }
}

/// What a committed server transaction changed: the triples to write and delete, and the attrs.
public struct ServerTransactionChanges: Sendable, Equatable {
  public var added: [Triple] = []
  public var removed: [Triple] = []
  public var upsertedAttrs: [Attr] = []
  public var deletedAttrIDs: [String] = []
  /// The attrs before the transaction, for ``TripleStore/revert(_:)``.
  var previousAttrs: AttrStore?
  /// Whether the app's attrs changed (every session then gets a refresh with the new attrs).
  public var attrsChanged: Bool { !upsertedAttrs.isEmpty || !deletedAttrIDs.isEmpty }
  /// Whether anything at all changed.
  public var isEmpty: Bool { added.isEmpty && removed.isEmpty && !attrsChanged }

  public static func == (a: Self, b: Self) -> Bool {
    a.added == b.added && a.removed == b.removed && a.upsertedAttrs == b.upsertedAttrs
      && a.deletedAttrIDs == b.deletedAttrIDs
  }
}

extension TripleStore {
  /// Applies a `transact`'s tx-steps with the reference server's semantics (protocol.md §3.1–3.2):
  /// UUIDs are lower-cased; steps run grouped by op in order of each op's first appearance;
  /// attrs added in the transaction are usable by later steps; lookups `[attr-id, value]` resolve
  /// to the entity with that unique value or create it; `create`/`update` modes are checked;
  /// cardinality-one writes replace the value and keep the original creation time; unique and
  /// `checked-data-type` constraints are enforced; deletes cascade; new entities get `null`
  /// triples for the indexed attrs they do not set.
  ///
  /// Atomic: when it throws, the store is unchanged.
  /// - Parameters:
  ///   - now: the creation time for new triples, in epoch milliseconds.
  ///   - systemWrite: allows writing `$users` and `$files`, which clients may not create.
  public mutating func applyServerTransaction(_ txSteps: JSON, now: Double, systemWrite: Bool = false)
    throws(TransactionError) -> ServerTransactionChanges
  {
    guard case let .array(rawSteps) = txSteps else { throw .invalid("tx-steps must be an array") }
    var steps: [[JSON]] = []
    for raw in rawSteps {
      guard case let .array(parts) = ServerSteps.lowercasingUUIDs(raw), let op = parts.first?.stringValue else {
        throw .invalid("each tx-step must be an array starting with its op", step: raw)
      }
      guard ServerSteps.ops.contains(op) else { throw .invalid("unknown op \(op)", step: raw) }
      steps.append(parts)
    }
    var order: [String] = []
    for step in steps where !order.contains(step[0].stringValue!) { order.append(step[0].stringValue!) }

    // Writes happen in place and are undone from the journal if a step fails, so a write costs
    // the same in a large store as in a small one. `update-attr` rebuilds every index, which the
    // journal cannot follow; a transaction with one works on a copy instead.
    let previousAttrs = attrs
    let previousMaxTime = maxTime
    var context = ServerTransactionContext(now: now, systemWrite: systemWrite)
    func run(_ store: inout TripleStore) throws(TransactionError) {
      store.journal = ChangeJournal()
      for op in order {
        for step in steps where step[0].stringValue == op {
          try store.applyServerStep(step, &context)
        }
      }
      try store.writeNullsForNewEntities(&context)
    }
    if order.contains("update-attr") {
      var draft = self
      try run(&draft)
      self = draft
    } else {
      do throws(TransactionError) {
        try run(&self)
      } catch {
        rollBack(journal!, attrs: previousAttrs, maxTime: previousMaxTime)
        throw error
      }
    }
    var changes = ServerTransactionChanges()
    let journal = self.journal!
    self.journal = nil
    changes.removed = journal.removed
    changes.added = journal.created.sorted().map { triple(at: $0) }
    // A value removed and written back unchanged is no change at all.
    let removedSet = Set(changes.removed)
    let addedSet = Set(changes.added)
    changes.removed.removeAll { addedSet.contains($0) }
    changes.added.removeAll { removedSet.contains($0) }
    changes.upsertedAttrs = context.upsertedAttrs.compactMap { attrs[$0] }
    changes.deletedAttrIDs = context.deletedAttrs
    changes.previousAttrs = previousAttrs
    return changes
  }

  /// Undoes a committed server transaction (for example when persisting it failed): its added
  /// triples go, its removed triples come back, and the attrs are as they were.
  public mutating func revert(_ changes: ServerTransactionChanges) {
    for t in changes.added {
      if let r = findRecord(t) { serverRemoveRecord(r) }
    }
    if let previous = changes.previousAttrs { attrs = previous }
    for t in changes.removed { index(t) }
    if changes.attrsChanged { rebuildClean() }
  }

  /// Undoes a failed transaction from its journal.
  mutating func rollBack(_ journal: ChangeJournal, attrs previous: AttrStore, maxTime previousMaxTime: Double) {
    self.journal = nil
    for r in journal.created.sorted() where records[Int(r)].isLive { serverRemoveRecord(r) }
    attrs = previous
    for t in journal.removed { index(t) }
    maxTime = previousMaxTime
  }

  /// The live record holding exactly this triple (objects compared by value).
  func findRecord(_ t: Triple) -> UInt32? {
    guard let e = symbols.lookup(t.entity), let a = symbols.lookup(t.attr), let list = slot(e, a) else { return nil }
    return list.array.first { records[Int($0)].isLive && json(records[Int($0)].v) == t.value }
  }
}

enum ServerSteps {
  static let ops: Set<String> = [
    "add-triple", "deep-merge-triple", "retract-triple", "delete-entity", "add-attr", "update-attr", "delete-attr",
    "restore-attr", "rule-params",
  ]

  static let systemEtypes: Set<String> = ["$users", "$files", "$streams"]

  /// Every string that parses as a UUID becomes its lower-case canonical spelling.
  static func lowercasingUUIDs(_ value: JSON) -> JSON {
    switch value {
    case let .string(s): return isUUID(s) ? .string(s.lowercased()) : value
    case let .array(a): return .array(a.map(lowercasingUUIDs))
    case let .object(o):
      var out = JSONObject(minimumCapacity: o.count)
      for (k, v) in o { out[k] = lowercasingUUIDs(v) }
      return .object(out)
    default: return value
    }
  }

  static func isUUID(_ s: String) -> Bool { UUIDBits(s).isValid }
}

struct ServerTransactionContext {
  let now: Double
  let systemWrite: Bool
  var upsertedAttrs: [String] = []
  var deletedAttrs: [String] = []
  /// (entity, etype) pairs that did not exist before and got data in this transaction.
  var newEntities: [(UInt32, String)] = []
  var seenNew: Set<String> = []
}

extension TripleStore {
  mutating func applyServerStep(_ step: [JSON], _ ctx: inout ServerTransactionContext) throws(TransactionError) {
    let op = step[0].stringValue!
    let stepJSON = JSON.array(step)
    switch op {
    case "add-attr":
      try serverAddAttr(step.count > 1 ? step[1] : .null, stepJSON, &ctx)
    case "update-attr":
      guard step.count > 1, case let .object(partial) = step[1], let id = partial["id"]?.stringValue else {
        throw .invalid("update-attr needs an attr with an id", step: stepJSON)
      }
      guard attrs[id] != nil else { throw TransactionError("record-not-found", "Attr \(id) does not exist.") }
      do { try attrs.update(partial) } catch { throw .invalid(error.description, step: stepJSON) }
      ctx.upsertedAttrs.append(id)
      rebuildClean()
    case "delete-attr", "restore-attr":
      guard step.count > 1, let id = step[1].stringValue else { throw .invalid("\(op) needs an attr id", step: stepJSON) }
      if op == "delete-attr", attrs[id] != nil {
        if let a = symbols.lookup(id) {
          for r in (aev[a] ?? [:]).values.flatMap({ $0.array }) { serverRemoveRecord(r) }
        }
        attrs.remove(id: id)
        ctx.deletedAttrs.append(id)
      }
    case "rule-params":
      return
    case "add-triple", "deep-merge-triple":
      try serverWrite(step, stepJSON, merge: op == "deep-merge-triple", &ctx)
    case "retract-triple":
      guard step.count >= 4 else { throw .invalid("retract-triple needs [e, a, v]", step: stepJSON) }
      let attr = try serverAttr(step[2], stepJSON)
      guard let e = try serverEntity(step[1], create: false, stepJSON, &ctx) else { return }
      let value = try serverValue(attr, step[3], stepJSON)
      if let a = symbols.lookup(attr.id), let v = existingKey(value), let r = record(e, a, v) {
        serverRemoveRecord(r)
      }
    case "delete-entity":
      guard step.count >= 2 else { throw .invalid("delete-entity needs an entity", step: stepJSON) }
      guard let e = try serverEntity(step[1], create: false, stepJSON, &ctx) else { return }
      let etype = step.count > 2 ? step[2].stringValue : nil
      if let etype, ServerSteps.systemEtypes.contains(etype), !ctx.systemWrite, etype != "$users" {
        throw TransactionError("permission-denied", "Permission denied: cannot delete \(etype) entities.")
      }
      serverDeleteEntity(e, etype: etype)
    default:
      throw .invalid("unknown op \(op)", step: stepJSON)
    }
  }

  // MARK: Attrs

  mutating func serverAddAttr(_ value: JSON, _ step: JSON, _ ctx: inout ServerTransactionContext)
    throws(TransactionError)
  {
    guard case var .object(o) = value else { throw .invalid("add-attr needs an attr object", step: step) }
    o.removeValue(forKey: "isUnsynced")
    let attr: Attr
    do { attr = try Attr(json: o) } catch { throw .invalid(error.description, step: step) }
    guard attr.isRef || attr.isBlob else { throw .invalid("value-type must be blob or ref", step: step) }
    guard attr.cardinality == "one" || attr.cardinality == "many" else {
      throw .invalid("cardinality must be one or many", step: step)
    }
    if attr.isRef && attr.reverseIdentity == nil { throw .invalid("a ref attr needs a reverse-identity", step: step) }
    let etype = attr.forwardIdentity.etype
    if etype.hasPrefix("$") && !ServerSteps.systemEtypes.contains(etype) && !ctx.systemWrite {
      throw .invalid("The $ keyword is reserved for system namespaces: \(etype)", step: step)
    }
    if let existing = attrs[attr.id] {
      if Self.sameAttr(existing, attr) { return }
      throw TransactionError(
        "record-not-unique", "The attribute with id \(attr.id) conflicts with an existing attribute with id \(attr.id).")
    }
    let f = attr.forwardIdentity
    if let other = attrs.forward(f.etype, f.label) ?? attrs.reverse(f.etype, f.label) {
      throw TransactionError(
        "record-not-unique", "Another attribute for \(f.etype).\(f.label) exists with different properties.",
        hint: ["record-type": "attr", "args": .array([.string(other.id)])])
    }
    if let r = attr.reverseIdentity, let other = attrs.forward(r.etype, r.label) ?? attrs.reverse(r.etype, r.label) {
      throw TransactionError(
        "record-not-unique", "Another attribute for \(r.etype).\(r.label) exists with different properties.",
        hint: ["record-type": "attr", "args": .array([.string(other.id)])])
    }
    var stored = o
    if stored["required?"] == nil { stored["required?"] = false }
    if stored["catalog"] == nil { stored["catalog"] = "user" }
    do { attrs.add(try Attr(json: stored)) } catch { throw .invalid(error.description, step: step) }
    ctx.upsertedAttrs.append(attr.id)
  }

  static func sameAttr(_ a: Attr, _ b: Attr) -> Bool {
    a.forwardIdentity == b.forwardIdentity && a.reverseIdentity == b.reverseIdentity && a.valueType == b.valueType
      && a.cardinality == b.cardinality && a.isUnique == b.isUnique && a.isIndexed == b.isIndexed
      && a.checkedDataType == b.checkedDataType
  }

  func serverAttr(_ value: JSON, _ step: JSON) throws(TransactionError) -> Attr {
    guard let id = value.stringValue else { throw .invalid("attr id must be a string", step: step) }
    guard let attr = attrs[id] else {
      throw .invalid("attr \(id) does not exist; create it with add-attr first", step: step)
    }
    return attr
  }

  // MARK: Entities and values

  /// The entity in a step's entity position. A UUID names it; a lookup `[attr-id, value]` finds
  /// the entity with that unique value, or (when `create`) makes one and writes the lookup triple.
  mutating func serverEntity(_ value: JSON, create: Bool, _ step: JSON, _ ctx: inout ServerTransactionContext)
    throws(TransactionError) -> UInt32?
  {
    switch value {
    case let .string(s):
      guard ServerSteps.isUUID(s) else {
        throw .invalid(
          "Invalid entity ID '\(s)'. Entity IDs must be UUIDs. Use id() or lookup() to generate a valid UUID.",
          step: step)
      }
      return symbols.intern(s)
    case let .array(pair) where pair.count == 2:
      let attr = try serverAttr(pair[0], step)
      guard attr.isUnique || attr.forwardIdentity.label == "id" else {
        throw .invalid("lookup attr \(attr.forwardIdentity.etype).\(attr.forwardIdentity.label) is not unique", step: step)
      }
      let lookupValue = pair[1]
      if let a = symbols.lookup(attr.id), let key = existingKey(lookupValue), let r = aev[a]?[key]?.first {
        return records[Int(r)].e
      }
      guard create else { return nil }
      let id: String
      if attr.forwardIdentity.label == "id" {
        guard case let .string(s) = lookupValue, ServerSteps.isUUID(s) else {
          throw .invalid("a lookup on id needs a UUID value", step: step)
        }
        id = s
      } else {
        id = InstantID.make()
      }
      let e = symbols.intern(id)
      try serverPut(e, attr, lookupValue, step, &ctx)
      return e
    default:
      throw .invalid(
        "Invalid entity ID '\(value.serialized())'. Entity IDs must be UUIDs. Use id() or lookup() to generate a valid UUID.",
        step: step)
    }
  }

  /// A step's value: for ref attrs an entity id or a value lookup `[attr-id, value]`.
  func serverValue(_ attr: Attr, _ value: JSON, _ step: JSON) throws(TransactionError) -> JSON {
    guard attr.isRef || attr.forwardIdentity.label == "id" else { return value }
    switch value {
    case let .string(s):
      guard ServerSteps.isUUID(s) else { throw .invalid("Invalid entity ID '\(s)' as a link target.", step: step) }
      return value
    case let .array(pair) where pair.count == 2:
      let lookupAttr = try serverAttr(pair[0], step)
      if attr.isRef, let revEtype = attr.reverseIdentity?.etype, lookupAttr.forwardIdentity.etype != revEtype {
        throw .invalid("lookup attr must belong to \(revEtype)", step: step)
      }
      guard let a = symbols.lookup(lookupAttr.id), let key = existingKey(pair[1]), let r = aev[a]?[key]?.first else {
        throw TransactionError(
          "record-not-found", "Could not find the entity for lookup \(value.serialized()).",
          hint: ["record-type": "lookup", "args": value])
      }
      return .string(symbols[records[Int(r)].e])
    default:
      throw .invalid("Invalid link target \(value.serialized()).", step: step)
    }
  }

  func entityExists(_ e: UInt32, etype: String) -> Bool {
    guard let slots = entitySlots(e) else { return false }
    for slot in slots where !slot.triples.isEmpty {
      if attrs[symbols[slot.attr]]?.forwardIdentity.etype == etype { return true }
    }
    return false
  }

  mutating func serverWrite(_ step: [JSON], _ stepJSON: JSON, merge: Bool, _ ctx: inout ServerTransactionContext)
    throws(TransactionError)
  {
    guard step.count >= 4 else { throw .invalid("\(step[0].stringValue!) needs [e, a, v]", step: stepJSON) }
    let attr = try serverAttr(step[2], stepJSON)
    let etype = attr.forwardIdentity.etype
    if !ctx.systemWrite, etype == "$users" || etype == "$files" {
      let label = attr.forwardIdentity.label
      if ["id", "email", "type", "path", "url", "size", "location-id"].contains(label) {
        throw TransactionError(
          "permission-denied", "Permission denied: \(etype).\(label) can only be written by the server.")
      }
    }
    if merge && !attr.isBlob { throw .invalid("merge operation is not supported for links", step: stepJSON) }
    let mode = step.count > 4 ? step[4]["mode"]?.stringValue : nil
    let entityValue = step[1]
    var existed = false
    if case let .array(pair) = entityValue, pair.count == 2, let a = pair[0].stringValue.flatMap({ symbols.lookup($0) }),
      let key = existingKey(pair[1]), let r = aev[a]?[key]?.first
    {
      existed = entityExists(records[Int(r)].e, etype: etype)
    } else if case let .string(s) = entityValue, let e = symbols.lookup(s.lowercased()) {
      existed = entityExists(e, etype: etype)
    }
    if mode == "create" && existed {
      throw TransactionError(
        "record-not-unique", "Creating entities that exist: \(entityValue.serialized())",
        hint: ["record-type": "entity", "etype": .string(etype)])
    }
    if mode == "update" && !existed {
      throw TransactionError(
        "record-not-found", "Updating entities that don't exist: \(entityValue.serialized())",
        hint: ["record-type": "entity", "etype": .string(etype)])
    }
    guard let e = try serverEntity(entityValue, create: true, stepJSON, &ctx) else { return }
    var value = try serverValue(attr, step[3], stepJSON)
    if merge, let a = symbols.lookup(attr.id), let current = slot(e, a)?.first {
      value = JSONMerge.deepMerge(json(records[Int(current)].v), value)
    } else if merge {
      value = JSONMerge.deepMerge(.null, value)
    }
    try serverPut(e, attr, value, stepJSON, &ctx)
  }

  /// Writes (e, attr, value) with server rules.
  mutating func serverPut(
    _ e: UInt32, _ attr: Attr, _ value: JSON, _ step: JSON, _ ctx: inout ServerTransactionContext
  ) throws(TransactionError) {
    try Self.checkType(attr, value, step)
    let etype = attr.forwardIdentity.etype
    if !entityExists(e, etype: etype) {
      let key = symbols[e] + "\u{0}" + etype
      if ctx.seenNew.insert(key).inserted { ctx.newEntities.append((e, etype)) }
    }
    let a = symbols.intern(attr.id)
    let v = key(for: value)
    if attr.isUnique, value != .null, let owners = aev[a]?[v] {
      var other = false
      owners.forEach { if records[Int($0)].e != e { other = true } }
      if other {
        throw TransactionError(
          "record-not-unique",
          "Record not unique: \(attr.forwardIdentity.etype).\(attr.forwardIdentity.label) = \(value.serialized())",
          hint: ["record-type": "triple", "attr": .string(attr.id), "value": value])
      }
    }
    if let existing = record(e, a, v) {
      if attr.isCardinalityOne, let list = slot(e, a), list.count > 1 {
        for r in list.array where r != existing { serverRemoveRecord(r) }
      }
      return
    }
    var t = ctx.now
    if attr.isCardinalityOne, let list = slot(e, a), let first = list.first {
      t = records[Int(first)].t
      for r in list.array { serverRemoveRecord(r) }
    }
    let r = newRecord(TripleRecord(e: e, a: a, v: v, t: t))
    appendToSlot(e, a, r)
    aev[a, default: [:]][v, default: .empty].append(r)
    if attr.isRef, let target = v.sym { addReverse(target, a, e) }
  }

  static func checkType(_ attr: Attr, _ value: JSON, _ step: JSON) throws(TransactionError) {
    guard let type = attr.checkedDataType, value != .null else { return }
    let ok: Bool
    switch type {
    case "string": ok = value.stringValue != nil
    case "number": ok = value.numberValue != nil
    case "boolean": ok = value.boolValue != nil
    case "date":
      switch value {
      case let .number(n): ok = n.isFinite
      case let .string(s): ok = !JSDate.parse(s).isNaN
      default: ok = false
      }
    default: ok = true
    }
    if !ok {
      throw .invalid(
        "Invalid value type for \(attr.forwardIdentity.etype).\(attr.forwardIdentity.label). Value must be a \(type) but the provided value type is \(value.serialized()).",
        step: step)
    }
  }

  /// Removes a record from every index, leaving no empty slot or stale reverse entry behind.
  mutating func serverRemoveRecord(_ r: UInt32) {
    let rec = records[Int(r)]
    unindexValue(r)
    if let slots = entitySlots(rec.e), let j = slots.firstIndex(where: { $0.attr == rec.a }) {
      eav[Int(rec.e)]![j].triples.remove(r)
      if eav[Int(rec.e)]![j].triples.isEmpty { eav[Int(rec.e)]!.remove(at: j) }
      if eav[Int(rec.e)]!.isEmpty { eav[Int(rec.e)] = nil }
    }
    if let target = rec.v.sym, attrs[symbols[rec.a]]?.isRef == true {
      if var slots = vae.removeValue(forKey: target), let j = slots.firstIndex(where: { $0.attr == rec.a }) {
        slots[j].sources.remove(rec.e)
        if slots[j].sources.isEmpty { slots.remove(at: j) }
        if !slots.isEmpty { vae[target] = slots }
      }
    }
    freeRecord(r)
  }

  /// `delete-entity` as the server does it: the entity's triples in `etype` (all when `nil`) and the
  /// links pointing at it, then cascades.
  mutating func serverDeleteEntity(_ start: UInt32, etype startEtype: String?) {
    var work: [(UInt32, String?)] = [(start, startEtype)]
    var visited = Set<String>()
    while let (e, etype) = work.popLast() {
      guard visited.insert(symbols[e] + "\u{0}" + (etype ?? "")).inserted else { continue }
      for slot in entitySlots(e) ?? [] {
        guard let attr = attrs[symbols[slot.attr]] else { continue }
        guard etype == nil || attr.forwardIdentity.etype == etype else { continue }
        for r in slot.triples.array {
          if attr.isRef, attr.onDeleteReverse == "cascade", let target = records[Int(r)].v.sym {
            work.append((target, attr.reverseIdentity?.etype))
          }
          serverRemoveRecord(r)
        }
      }
      for slot in vae[e] ?? [] {
        guard let attr = attrs[symbols[slot.attr]] else { continue }
        guard etype == nil || attr.reverseIdentity?.etype == etype else { continue }
        for source in slot.sources.array {
          if let r = record(source, slot.attr, .sym(e)) { serverRemoveRecord(r) }
          if attr.onDelete == "cascade" { work.append((source, attr.forwardIdentity.etype)) }
        }
      }
    }
  }

  /// The reference writes explicit `null`s for the indexed blob attrs a new entity does not set.
  mutating func writeNullsForNewEntities(_ ctx: inout ServerTransactionContext) throws(TransactionError) {
    for (e, etype) in ctx.newEntities where entityExists(e, etype: etype) {
      for (_, attr) in attrs.blobAttrs(etype) ?? [:] where attr.isIndexed && attr.forwardIdentity.label != "id" {
        let a = symbols.intern(attr.id)
        if slot(e, a) == nil || slot(e, a)!.isEmpty {
          let r = newRecord(TripleRecord(e: e, a: a, v: .null, t: ctx.now))
          appendToSlot(e, a, r)
          aev[a, default: [:]][.null, default: .empty].append(r)
        }
      }
    }
  }

  /// Rebuilds indexes from live triples without the client's stale entries.
  mutating func rebuildClean() {
    guard var saved = journal else {
      rebuild()
      return
    }
    // Record indices change in a rebuild: carry the journal across by triple.
    let created = saved.created.map { triple(at: $0) }
    journal = nil
    rebuild()
    saved.created = []
    for t in created {
      if let e = symbols.lookup(t.entity), let a = symbols.lookup(t.attr), let v = existingKey(t.value),
        let r = record(e, a, v)
      {
        saved.created.insert(r)
      }
    }
    journal = saved
  }
}
