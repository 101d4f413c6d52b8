import OrderedCollections
struct ServerTransactionContext {
  let now: Double
  let systemWrite: Bool
  var upsertedAttrs: [String] = []
  var deletedAttrs: [String] = []
  /// Each step's resolved facts, for permission checks.
  var facts = TransactionFacts()

  init(now: Double, systemWrite: Bool) {
    self.now = now
    self.systemWrite = systemWrite
  }
  /// (entity, etype) pairs that did not exist before and got data in this transaction, in order.
  var newEntities: [(UInt32, String)] = []
  private var newSet: Set<NewEntity> = []

  private struct NewEntity: Hashable {
    var entity: UInt32
    var etype: String
  }

  /// Whether this transaction created `entity` in `etype`.
  func isNew(_ entity: UInt32, _ etype: String) -> Bool { newSet.contains(NewEntity(entity: entity, etype: etype)) }

  mutating func noteNew(_ entity: UInt32, _ etype: String) {
    if newSet.insert(NewEntity(entity: entity, etype: etype)).inserted { newEntities.append((entity, etype)) }
  }
}

extension TripleStore {
  /// A session may not rename or delete an attr of a system namespace (`$users`, `$files`,
  /// `$streams`): deleting `$users.email` would delete every user's email for good. Only the
  /// server's own writes (``ServerTransactionContext/systemWrite``) may.
  static func refuseSystemAttrChange(_ attr: Attr, _ step: TxStep, _ ctx: ServerTransactionContext) throws(TransactionError) {
    let etype = attr.forwardIdentity.etype
    guard ServerSteps.systemEtypes.contains(etype), !ctx.systemWrite else { return }
    throw TransactionError(.permissionDenied, "Permission denied: cannot \(step.op.rawValue) on \(etype) attrs.")
  }

  /// `$files` system columns other than `id` and `path` (size, content-type, location-id, …) are
  /// written only by instant-local's storage routes; a transaction may not write or retract them,
  /// an admin's included, as on the reference (`validate-system-triple-op!`).
  static func refuseFilesSystemColumn(_ attr: Attr, _ step: TxStep, _ ctx: ServerTransactionContext) throws(TransactionError) {
    let ident = attr.forwardIdentity
    guard ident.etype == "$files", !ctx.systemWrite, attr.json["catalog"] == "system", ident.label != "id",
      ident.label != "path"
    else { return }
    let message = "$files.\(ident.label) is a system column. You aren't allowed to change this directly."
    throw TransactionError(
      .validationFailed, "Validation failed for tx-step: \(message)",
      hint: ["data-type": "tx-step", "input": step.json, "errors": [["message": .string(message)]]],
      description: message)
  }

  mutating func applyServerStep(_ step: TxStep, _ ctx: inout ServerTransactionContext) throws(TransactionError) {
    switch step.op {
    case .addAttr:
      try serverAddAttr(step[1] ?? .null, step, &ctx)
    case .updateAttr:
      guard case let .object(partial)? = step[1], let id = partial["id"]?.stringValue else {
        throw .invalid("update-attr needs an attr with an id", in: step.json)
      }
      guard let existing = attrs[id] else {
        throw TransactionError(
          .recordNotFound, "Attr \(id) does not exist.", description: "update-attr: there is no attr with id \(id).")
      }
      try Self.refuseSystemAttrChange(existing, step, ctx)
      ctx.facts.changedAttrs = true
      do { try attrs.update(partial) } catch { throw .invalid(error.description, in: step.json) }
      ctx.upsertedAttrs.append(id)
      rebuildClean()
    case .deleteAttr, .restoreAttr:
      guard let id = step[1]?.stringValue else { throw .invalid("\(step.op.rawValue) needs an attr id", in: step.json) }
      ctx.facts.changedAttrs = true
      if step.op == .deleteAttr, let existing = attrs[id] {
        try Self.refuseSystemAttrChange(existing, step, ctx)
        if let a = symbols.lookup(id) {
          for r in (aev[a] ?? [:]).values.flatMap({ $0.array }) { removeRecord(r, .clean) }
        }
        attrs.remove(id: id)
        ctx.deletedAttrs.append(id)
      }
    case .ruleParams:
      // A malformed one changes nothing and grants nothing: it is ignored, as the client's store
      // ignores it.
      guard let entity = step[1], let etype = step[2]?.stringValue, step.parts.count == 4 else { return }
      var resolved = entity
      if case .array = entity, let e = try serverEntity(entity, create: false, step, &ctx) { resolved = .string(symbols[e]) }
      ctx.facts.ruleParams.append(.init(entity: resolved, etype: etype, params: step[3] ?? .null))
    case .addTriple, .deepMergeTriple:
      try serverWrite(step, &ctx)
    case .retractTriple:
      guard step.isCompleteTriple else { throw .invalid("retract-triple needs [e, a, v]", in: step.json) }
      let attr = try serverAttr(step[2]!, step)
      guard let e = try serverEntity(step.entity!, create: false, step, &ctx) else { return }
      try Self.refuseFilesSystemColumn(attr, step, ctx)
      let value = try serverValue(attr, step.value!, step)
      if let a = symbols.lookup(attr.id), let v = existingKey(value), let r = record(e, a, v) {
        removeRecord(r, .clean)
      }
      ctx.facts.writes.append(Self.fact(.retract, symbols[e], attr, value))
    case .deleteEntity:
      guard let entity = step.entity else { throw .invalid("delete-entity needs an entity", in: step.json) }
      guard let e = try serverEntity(entity, create: false, step, &ctx) else { return }
      // Without a namespace the step deletes the entity in every namespace it has attrs in:
      // the same guard applies to each of them.
      let etype = step.etype?.stringValue
      let namespaces = etype.map { [$0] } ?? namespaces(of: e)
      // `$users` and `$files` entities may be deleted under their `delete` rules.
      for etype in namespaces
      where ServerSteps.systemEtypes.contains(etype) && !ctx.systemWrite && etype != "$users" && etype != "$files" {
        throw TransactionError(.permissionDenied, "Permission denied: cannot delete \(etype) entities.")
      }
      serverDeleteEntity(e, etype: etype, facts: &ctx.facts)
    }
  }

  // MARK: Attrs

  mutating func serverAddAttr(_ value: JSON, _ step: TxStep, _ ctx: inout ServerTransactionContext)
    throws(TransactionError)
  {
    guard case var .object(o) = value else { throw .invalid("add-attr needs an attr object", in: step.json) }
    o.removeValue(forKey: "isUnsynced")
    let attr: Attr
    do { attr = try Attr(json: o) } catch { throw .invalid(error.description, in: step.json) }
    guard attr.isRef || attr.isBlob else { throw .invalid("value-type must be blob or ref", in: step.json) }
    guard attr.cardinality != nil else {
      throw .invalid("cardinality must be one or many", in: step.json)
    }
    if attr.isRef && attr.reverseIdentity == nil { throw .invalid("a ref attr needs a reverse-identity", in: step.json) }
    let etype = attr.forwardIdentity.etype
    if etype.hasPrefix("$") && !ServerSteps.systemEtypes.contains(etype) && !ctx.systemWrite {
      throw .invalid("The $ keyword is reserved for system namespaces: \(etype)", in: step.json)
    }
    ctx.facts.addedAttrs.append(.object(o))
    if let existing = attrs[attr.id] {
      if Self.sameAttr(existing, attr) { return }
      throw TransactionError(
        .recordNotUnique, "The attribute with id \(attr.id) conflicts with an existing attribute with id \(attr.id).",
        description: "add-attr \(attr.qualifiedName): an attr with id \(attr.id) exists with different properties.")
    }
    let f = attr.forwardIdentity
    if let other = attrs.forward(f.etype, f.label) ?? attrs.reverse(f.etype, f.label) {
      throw .identTaken(f.etype, f.label, by: other)
    }
    if let r = attr.reverseIdentity, let other = attrs.forward(r.etype, r.label) ?? attrs.reverse(r.etype, r.label) {
      throw .identTaken(r.etype, r.label, by: other)
    }
    var stored = o
    if stored["required?"] == nil { stored["required?"] = false }
    if stored["catalog"] == nil { stored["catalog"] = "user" }
    do { attrs.add(try Attr(json: stored)) } catch { throw .invalid(error.description, in: step.json) }
    ctx.upsertedAttrs.append(attr.id)
  }

  static func sameAttr(_ a: Attr, _ b: Attr) -> Bool {
    a.forwardIdentity == b.forwardIdentity && a.reverseIdentity == b.reverseIdentity && a.valueType == b.valueType
      && a.cardinality == b.cardinality && a.isUnique == b.isUnique && a.isIndexed == b.isIndexed
      && a.checkedDataType == b.checkedDataType
  }

  func serverAttr(_ value: JSON, _ step: TxStep) throws(TransactionError) -> Attr {
    guard let id = value.stringValue else { throw .invalid("attr id must be a string", in: step.json) }
    guard let attr = attrs[id] else {
      throw .invalid("attr \(id) does not exist; create it with add-attr first", in: step.json)
    }
    return attr
  }

  // MARK: Entities and values

  /// The entity in a step's entity position. A UUID names it; a lookup `[attr-id, value]` finds
  /// the entity with that unique value, or (when `create`) makes one and writes the lookup triple.
  mutating func serverEntity(_ value: JSON, create: Bool, _ step: TxStep, _ ctx: inout ServerTransactionContext)
    throws(TransactionError) -> UInt32?
  {
    switch value {
    case let .string(s):
      guard ServerSteps.isUUID(s) else {
        throw .invalid(
          "Invalid entity ID '\(s)'. Entity IDs must be UUIDs. Use id() or lookup() to generate a valid UUID.",
          in: step.json)
      }
      return symbols.intern(s)
    case let .array(pair) where pair.count == 2:
      let attr = try serverAttr(pair[0], step)
      guard attr.isUnique || attr.forwardIdentity.label == "id" else {
        throw .invalid("lookup attr \(attr.qualifiedName) is not unique", in: step.json)
      }
      let lookupValue = pair[1]
      if let a = symbols.lookup(attr.id), let key = existingKey(lookupValue), let r = aev[a]?[key]?.first {
        return records[Int(r)].e
      }
      guard create else { return nil }
      let id: String
      if attr.forwardIdentity.label == "id" {
        guard case let .string(s) = lookupValue, ServerSteps.isUUID(s) else {
          throw .invalid("a lookup on id needs a UUID value", in: step.json)
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
        in: step.json)
    }
  }

  /// A step's value: for ref attrs an entity id or a value lookup `[attr-id, value]`.
  func serverValue(_ attr: Attr, _ value: JSON, _ step: TxStep) throws(TransactionError) -> JSON {
    guard attr.isRef || attr.forwardIdentity.label == "id" else { return value }
    switch value {
    case let .string(s):
      guard ServerSteps.isUUID(s) else { throw .invalid("Invalid entity ID '\(s)' as a link target.", in: step.json) }
      return value
    case let .array(pair) where pair.count == 2:
      let lookupAttr = try serverAttr(pair[0], step)
      if attr.isRef, let revEtype = attr.reverseIdentity?.etype, lookupAttr.forwardIdentity.etype != revEtype {
        throw .invalid("lookup attr must belong to \(revEtype)", in: step.json)
      }
      guard let a = symbols.lookup(lookupAttr.id), let key = existingKey(pair[1]), let r = aev[a]?[key]?.first else {
        throw TransactionError(
          .recordNotFound, "Could not find the entity for lookup \(value.serialized()).",
          hint: ["record-type": "lookup", "args": value])
      }
      return .string(symbols[records[Int(r)].e])
    default:
      throw .invalid("Invalid link target \(value.serialized()).", in: step.json)
    }
  }

  func entityExists(_ e: UInt32, etype: String) -> Bool {
    guard let slots = entitySlots(e) else { return false }
    for slot in slots where !slot.triples.isEmpty {
      if attrs[symbols[slot.attr]]?.forwardIdentity.etype == etype { return true }
    }
    return false
  }

  mutating func serverWrite(_ step: TxStep, _ ctx: inout ServerTransactionContext) throws(TransactionError) {
    guard step.isCompleteTriple, let entityValue = step.entity, let rawValue = step.value else {
      throw .invalid("\(step.op.rawValue) needs [e, a, v]", in: step.json)
    }
    let attr = try serverAttr(step[2]!, step)
    let etype = attr.forwardIdentity.etype
    if !ctx.systemWrite, etype == "$users" {
      let label = attr.forwardIdentity.label
      if ["id", "email", "type", "path", "url", "size", "location-id"].contains(label) {
        throw TransactionError(
          .permissionDenied, "Permission denied: \(attr.qualifiedName) can only be written by the server.")
      }
    }
    try Self.refuseFilesSystemColumn(attr, step, ctx)
    let merge = step.op == .deepMergeTriple
    if merge && !attr.isBlob { throw .invalid("merge operation is not supported for links", in: step.json) }
    if let mode = step.mode {
      var existed = false
      if case let .array(pair) = entityValue, pair.count == 2,
        let a = pair[0].stringValue.flatMap({ symbols.lookup($0) }), let key = existingKey(pair[1]),
        let r = aev[a]?[key]?.first
      {
        let e = records[Int(r)].e
        existed = entityExists(e, etype: etype) && !ctx.isNew(e, etype)
      } else if case let .string(s) = entityValue, let e = symbols.lookup(s.lowercased()) {
        // An entity this transaction created counts as new: `create` writes every attribute with
        // the mode, and the modes are checked against the store as it was before the transaction.
        existed = entityExists(e, etype: etype) && !ctx.isNew(e, etype)
      }
      if !mode.allows(entityExists: existed) {
        let hint: JSON = ["record-type": "entity", "etype": .string(etype)]
        switch mode {
        case .create:
          throw TransactionError(.recordNotUnique, "Creating entities that exist: \(entityValue.serialized())", hint: hint)
        case .update:
          throw TransactionError(
            .recordNotFound, "Updating entities that don't exist: \(entityValue.serialized())", hint: hint)
        }
      }
    }
    guard let e = try serverEntity(entityValue, create: true, step, &ctx) else { return }
    var value = try serverValue(attr, rawValue, step)
    if merge {
      let current = symbols.lookup(attr.id).flatMap { slot(e, $0)?.first }.map { json(records[Int($0)].v) }
      value = JSONMerge.deepMerge(current ?? .null, value)
    }
    try serverPut(e, attr, value, step, &ctx)
    ctx.facts.writes.append(Self.fact(merge ? .merge : .add, symbols[e], attr, value))
  }

  static func fact(_ kind: TransactionFacts.Write.Kind, _ entity: String, _ attr: Attr, _ value: JSON) -> TransactionFacts.Write {
    let f = attr.forwardIdentity
    let r = attr.isRef ? attr.reverseIdentity : nil
    return TransactionFacts.Write(
      kind: kind, entity: entity, etype: f.etype, label: f.label, attrID: attr.id,
      linked: r == nil ? nil : value.stringValue, linkedEtype: r?.etype, reverseLabel: r?.label)
  }

  /// Writes (e, attr, value) with server rules.
  mutating func serverPut(
    _ e: UInt32, _ attr: Attr, _ value: JSON, _ step: TxStep, _ ctx: inout ServerTransactionContext
  ) throws(TransactionError) {
    try Self.checkType(attr, value, step)
    let etype = attr.forwardIdentity.etype
    if !entityExists(e, etype: etype) { ctx.noteNew(e, etype) }
    let v = key(for: value)
    if attr.isUnique, value != .null, let a = symbols.lookup(attr.id), let owners = aev[a]?[v] {
      var other = false
      owners.forEach { if records[Int($0)].e != e { other = true } }
      if other {
        throw TransactionError(
          .recordNotUnique, "Record not unique: \(attr.qualifiedName) = \(value.serialized())",
          hint: ["record-type": "triple", "attr": .string(attr.id), "value": value])
      }
    }
    writeTriple(e, attr, v, .server(now: ctx.now))
  }

  static func checkType(_ attr: Attr, _ value: JSON, _ step: TxStep) throws(TransactionError) {
    if let type = attr.checkedDataType, !attr.accepts(value) {
      throw .invalid(
        "Invalid value type for \(attr.qualifiedName). Value must be a \(type) but the provided value type is \(value.serialized()).",
        in: step.json)
    }
  }

  /// `delete-entity` as the server does it: the entity's triples in `etype` (all when `nil`) and the
  /// links pointing at it, then cascades.
  mutating func serverDeleteEntity(_ start: UInt32, etype startEtype: String?, facts: inout TransactionFacts) {
    var work: [(UInt32, String?)] = [(start, startEtype)]
    var visited = Set<String>()
    let rootEtype = startEtype ?? namespaces(of: start).first
    while let (e, etype) = work.popLast() {
      guard visited.insert(symbols[e] + "\u{0}" + (etype ?? "")).inserted else { continue }
      for namespace in etype.map({ [$0] }) ?? namespaces(of: e) {
        facts.deletes.append(
          .init(entity: symbols[e], etype: namespace, root: symbols[start], rootEtype: e == start ? namespace : rootEtype ?? namespace))
      }
      for slot in entitySlots(e) ?? [] {
        guard let attr = attrs[symbols[slot.attr]] else { continue }
        guard etype == nil || attr.forwardIdentity.etype == etype else { continue }
        for r in slot.triples.array {
          if attr.isRef, attr.onDeleteReverse == "cascade", let target = records[Int(r)].v.sym {
            work.append((target, attr.reverseIdentity?.etype))
          }
          removeRecord(r, .clean)
        }
      }
      for slot in vae[e] ?? [] {
        guard let attr = attrs[symbols[slot.attr]] else { continue }
        guard etype == nil || attr.reverseIdentity?.etype == etype else { continue }
        for source in slot.sources.array {
          if let r = record(source, slot.attr, .sym(e)) { removeRecord(r, .clean) }
          if attr.onDelete == "cascade" { work.append((source, attr.forwardIdentity.etype)) }
        }
      }
    }
  }

  /// The namespaces an entity has attributes in, sorted.
  func namespaces(of e: UInt32) -> [String] {
    Set((entitySlots(e) ?? []).compactMap { attrs[symbols[$0.attr]]?.forwardIdentity.etype }).sorted()
  }

  /// The reference writes explicit `null`s for the indexed blob attrs a new entity does not set.
  mutating func writeNullsForNewEntities(_ ctx: inout ServerTransactionContext) throws(TransactionError) {
    for (e, etype) in ctx.newEntities where entityExists(e, etype: etype) {
      for (_, attr) in attrs.blobAttrs(etype) ?? [:] where attr.isIndexed && attr.forwardIdentity.label != "id" {
        let a = symbols.intern(attr.id)
        if slot(e, a) == nil || slot(e, a)!.isEmpty {
          insertRecord(e, a, .null, t: ctx.now, isRef: false)
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
