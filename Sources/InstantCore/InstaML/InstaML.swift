import OrderedCollections

/// InstaML: high-level operations → tx-steps, exactly as the reference client expands them
/// (docs/protocol.md, "InstaML expansion"): missing attrs are created first (`add-attr`, lookups before the
/// rest), then each operation expands in order, the id triple first.
public struct InstaML {
  public var attrs: AttrStore
  /// The client's cached query stores, used to decide `{"mode": "update"}` for updates of
  /// entities it has already seen.
  public var stores: [TripleStore]
  public var schema: ClientSchema?
  public var newID: () -> String

  public init(
    attrs: AttrStore, stores: [TripleStore] = [], schema: ClientSchema? = nil,
    newID: @escaping () -> String = InstantID.make
  ) {
    self.attrs = attrs
    self.stores = stores
    self.schema = schema
    self.newID = newID
  }

  /// Expands operations into tx-steps: `[...add-attr steps, ...data steps]`.
  public func transform(_ ops: [InstaMLOp]) throws(InstaMLError) -> [JSON] {
    var creator = AttrCreator(attrs: attrs, schema: schema, newID: newID)
    try creator.createMissingAttrs(ops)
    let ctx = Expander(attrs: creator.resultAttrs, stores: stores)
    var steps = creator.addSteps
    for op in ops { steps.append(contentsOf: try ctx.expand(op)) }
    return steps
  }
}

// MARK: Lookups

enum Lookups {
  /// `[attrName, value]` when the entity position is a lookup, `nil` for a plain id.
  static func pair(_ eid: JSON) throws(InstaMLError) -> (String, JSON)? {
    switch eid {
    case let .string(s):
      guard s.hasPrefix("lookup__") else { return nil }
      let parts = s.split(separator: "__", omittingEmptySubsequences: false).map(String.init)
      guard parts.count >= 3 else { throw .invalidLookup("\(s) is not a valid lookup.") }
      let valueText = parts[2...].joined(separator: "__")
      do { return (parts[1], try JSON.parse(valueText)) } catch {
        throw .invalidLookup("\(s) is not a valid lookup: \(error)")
      }
    case let .array(a):
      guard a.count >= 1, case let .string(name) = a[0] else {
        throw .invalidLookup("lookup must be [attribute, value].")
      }
      return (name, a.count > 1 ? a[1] : .null)
    case let .object(o):
      guard o.count == 1, let (k, v) = o.elements.first.map({ ($0.key, $0.value) }) else {
        throw .invalidLookup("lookup must be an object with a single unique attr and value.")
      }
      return (k, v)
    default:
      throw .invalidLookup("lookup must be an object with a single unique attr and value.")
    }
  }
}

// MARK: Attr creation

struct AttrCreator {
  var attrs: AttrStore
  let schema: ClientSchema?
  let newID: () -> String
  var localAttrs: [Attr] = []
  var addedIDs: Set<String> = []
  var addSteps: [JSON] = []

  init(attrs: AttrStore, schema: ClientSchema?, newID: @escaping () -> String) {
    self.attrs = attrs
    self.schema = schema
    self.newID = newID
  }

  /// The attrs with those this transaction creates. Unsynced attrs re-emitted for the wire are in
  /// `attrs` already, so a transaction that creates none (every write of an offline client) does
  /// not rebuild the attr indexes.
  var resultAttrs: AttrStore {
    let created = localAttrs.filter { attrs[$0.id] == nil }
    guard !created.isEmpty else { return attrs }
    var next = attrs
    for attr in created { next.add(attr) }
    return next
  }

  func byForward(_ etype: String, _ label: String) -> Attr? {
    attrs.forward(etype, label)
      ?? localAttrs.first { $0.forwardIdentity.etype == etype && $0.forwardIdentity.label == label }
  }

  func byReverse(_ etype: String, _ label: String) -> Attr? {
    attrs.reverse(etype, label)
      ?? localAttrs.first { $0.reverseIdentity?.etype == etype && $0.reverseIdentity?.label == label }
  }

  mutating func add(_ attr: Attr) {
    localAttrs.append(attr)
    addSteps.append(TxStep.addAttr(attr.json).json)
    addedIDs.insert(attr.id)
  }

  /// Re-emits attrs created by earlier, still-pending mutations so each mutation stands alone.
  mutating func addUnsynced(_ attr: Attr?) {
    guard let attr, JSValue(attr.json["isUnsynced"]).isTruthy, !addedIDs.contains(attr.id) else { return }
    localAttrs.append(attr)
    addSteps.append(TxStep.addAttr(attr.json).json)
    addedIDs.insert(attr.id)
  }

  func isRefLookup(_ etype: String, _ identName: String) -> Bool {
    identName.contains(".") && byForward(etype, identName) == nil
  }

  mutating func objectAttr(_ etype: String, _ label: String, _ props: JSONObject?) throws(InstaMLError) -> Attr {
    var o: JSONObject = [
      "id": .string(newID()), "forward-identity": .array([.string(newID()), .string(etype), .string(label)]),
      "value-type": "blob", "cardinality": "one", "unique?": false, "index?": false, "isUnsynced": true,
    ]
    if let schema, label != "id" {
      guard let attr = schema.entities[etype]?[label] else {
        throw .unknownAttribute("\(etype).\(label)", message: "\(etype).\(label) does not exist in your schema")
      }
      o["index?"] = .bool(attr.indexed)
      o["unique?"] = .bool(attr.unique)
      if ["string", "date", "boolean", "number"].contains(attr.valueType) {
        o["checked-data-type"] = .string(attr.valueType)
      }
    }
    for (k, v) in props ?? [:] { o[k] = v }
    return try Self.attr(o)
  }

  mutating func refAttr(_ etype: String, _ label: String, _ props: JSONObject?) throws(InstaMLError) -> Attr {
    var schemaProps: JSONObject? = nil
    if let schema {
      guard let link = schema.link(etype, label) else {
        throw .unknownLink("\(etype).\(label)", message: "Couldn't find the link \(etype).\(label) in your schema")
      }
      var p: JSONObject = [
        "forward-identity": .array([.string(newID()), .string(link.forward.on), .string(link.forward.label)]),
        "reverse-identity": .array([.string(newID()), .string(link.reverse.on), .string(link.reverse.label)]),
        "cardinality": .string(link.forward.has.rawValue),
        "unique?": .bool(link.reverse.has == .one),
      ]
      if let d = link.forward.onDelete { p["on-delete"] = .string(d) }
      if let d = link.reverse.onDelete { p["on-delete-reverse"] = .string(d) }
      schemaProps = p
    }
    var o: JSONObject = [
      "id": .string(newID()), "forward-identity": .array([.string(newID()), .string(etype), .string(label)]),
      "reverse-identity": .array([.string(newID()), .string(label), .string(etype)]),
      "value-type": "ref", "cardinality": "many", "unique?": false, "index?": false, "isUnsynced": true,
    ]
    for (k, v) in schemaProps ?? [:] { o[k] = v }
    for (k, v) in props ?? [:] { o[k] = v }
    return try Self.attr(o)
  }

  static func attr(_ o: JSONObject) throws(InstaMLError) -> Attr {
    do { return try Attr(json: o) } catch { throw .invalidSchema(error.description) }
  }

  static let lookupProps: JSONObject = ["unique?": true, "index?": true]
  static let refLookupProps: JSONObject = ["unique?": true, "index?": true, "cardinality": "one"]

  mutating func addForRef(_ etype: String, _ label: String) throws(InstaMLError) {
    let fwd = byForward(etype, label)
    let rev = byReverse(etype, label)
    addUnsynced(fwd)
    addUnsynced(rev)
    if fwd == nil && rev == nil { add(try refAttr(etype, label, Self.refLookupProps)) }
  }

  static func refLookupForwardName(_ identName: String) throws(InstaMLError) -> String {
    let parts = identName.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1] == "id" else {
      throw .invalidLookup("\(identName) is not a valid lookup attribute.")
    }
    return String(parts[0])
  }

  static let lookupActions: Set<InstaMLOp.Action> = [.link, .unlink, .create, .update, .merge, .delete, .ruleParams]
  static let objectActions: Set<InstaMLOp.Action> = [.create, .update, .merge, .link, .unlink]

  mutating func createMissingAttrs(_ ops: [InstaMLOp]) throws(InstaMLError) {
    // Lookup attrs first, so they are created unique.
    for op in ops where Self.lookupActions.contains(op.action) {
      var pairs: [(etype: String, name: String, linkLabel: String?)] = []
      if let pair = try Lookups.pair(op.entity) { pairs.append((op.etype, pair.0, nil)) }
      if op.action == .link, let args = op.args {
        for (label, value) in JSObjects.entries(args) ?? [] {
          let eids = value.arrayValue ?? [value]
          for eid in eids {
            if let pair = try Lookups.pair(eid) { pairs.append((op.etype, pair.0, label)) }
          }
        }
      }
      for (etype, name, linkLabel) in pairs {
        if let linkLabel {
          try addForRef(etype, linkLabel)
          let fwd = byForward(etype, linkLabel)
          let rev = byReverse(etype, linkLabel)
          addUnsynced(fwd)
          addUnsynced(rev)
          let linkEtype = fwd?.reverseIdentity?.etype ?? rev?.forwardIdentity.etype ?? linkLabel
          if isRefLookup(linkEtype, name) {
            try addForRef(linkEtype, try Self.refLookupForwardName(name))
          } else {
            let attr = byForward(linkEtype, name)
            if attr == nil { add(try objectAttr(linkEtype, name, Self.lookupProps)) }
            addUnsynced(attr)
          }
        } else if isRefLookup(etype, name) {
          try addForRef(etype, try Self.refLookupForwardName(name))
        } else {
          let attr = byForward(etype, name)
          if attr == nil { add(try objectAttr(etype, name, Self.lookupProps)) }
          addUnsynced(attr)
        }
      }
    }
    // Object and ref attrs.
    for op in ops where Self.objectActions.contains(op.action) {
      let etype = op.etype
      let idAttr = byForward(etype, "id")
      addUnsynced(idAttr)
      if idAttr == nil { add(try objectAttr(etype, "id", ["unique?": true])) }
      for label in JSObjects.keys(op.args ?? .object([:])) {
        let fwd = byForward(etype, label)
        addUnsynced(fwd)
        if [.create, .update, .merge].contains(op.action), fwd == nil {
          add(try objectAttr(etype, label, label == "id" ? ["unique?": true] : nil))
        }
        if op.action == .link || op.action == .unlink {
          let rev = byReverse(etype, label)
          if fwd == nil && rev == nil { add(try refAttr(etype, label, nil)) }
          addUnsynced(rev)
        }
      }
    }
  }
}

// MARK: Expansion

struct Expander {
  let attrs: AttrStore
  let stores: [TripleStore]

  func lookupAttr(_ etype: String, _ identName: String) throws(InstaMLError) -> Attr? {
    guard identName.contains("."), attrs.forward(etype, identName) == nil else {
      return attrs.forward(etype, identName)
    }
    let name = try AttrCreator.refLookupForwardName(identName)
    let attr = attrs.forward(etype, name) ?? attrs.reverse(etype, name)
    if let attr, !attr.isRef { throw .notUnique(identName, message: "\(identName) does not reference a valid link attribute.") }
    return attr
  }

  /// `extractLookup`: the id as is, or `[attr-id, value]` for a lookup on a unique attr.
  func extract(_ etype: String, _ eid: JSON) throws(InstaMLError) -> JSON {
    guard let (name, value) = try Lookups.pair(eid) else { return eid }
    guard let attr = try lookupAttr(etype, name), attr.isUnique else {
      throw .notUnique("\(etype).\(name)", message: "\(name) is not a unique attribute.")
    }
    return .array([.string(attr.id), value])
  }

  func attr(_ etype: String, _ label: String) throws(InstaMLError) -> Attr {
    guard let attr = attrs.forward(etype, label) else {
      throw .unknownAttribute("\(etype).\(label)", message: "TypeError: no attr for \(etype).\(label)")
    }
    return attr
  }

  /// Whether some cached query store already holds this entity in `etype`.
  func entityExists(_ etype: String, _ eid: JSON) -> Bool {
    if case let .array(lookup) = eid, lookup.count == 2, let attrId = lookup[0].stringValue {
      for store in stores {
        guard let a = store.symbols.lookup(attrId), let byValue = store.aev[a], let key = store.existingKey(lookup[1])
        else { continue }
        if let list = byValue[key], !list.isEmpty { return true }
      }
      return false
    }
    guard case let .string(id) = eid else { return false }
    for store in stores {
      guard let e = store.symbols.lookup(id), let slots = store.entitySlots(e) else { continue }
      for slot in slots where store.attrs[store.symbols[slot.attr]]?.forwardIdentity.etype == etype {
        return true
      }
    }
    return false
  }

  func serverMode(_ op: InstaMLOp, _ lookup: JSON) -> TxStep.Mode? {
    switch op.opts?["upsert"] {
    case .bool(false)?: return .update
    case .bool(true)?: return nil
    default: return entityExists(op.etype, lookup) ? .update : nil
    }
  }

  func withIdForLookup(_ etype: String, _ eid: JSON, _ steps: [JSON]) throws(InstaMLError) -> [JSON] {
    let lookup = try extract(etype, eid)
    guard case .array = lookup else { return steps }
    let idAttrId: JSON = attrs.forward(etype, "id").map { .string($0.id) } ?? .null
    return [TxStep.addTriple(lookup, idAttrId, lookup).json] + steps
  }

  func expand(_ opIn: InstaMLOp) throws(InstaMLError) -> [JSON] {
    var op = opIn
    if case var .object(args)? = op.args {
      args.removeValue(forKey: "id")
      op.args = .object(args)
    }
    let etype = op.etype
    switch op.action {
    case .create:
      let lookup = try extract(etype, op.entity)
      var steps = [TxStep.addTriple(lookup, .string(try attr(etype, "id").id), lookup, mode: .create).json]
      for (label, value) in JSObjects.entries(op.args ?? .object([:])) ?? [] {
        steps.append(TxStep.addTriple(lookup, .string(try attr(etype, label).id), value, mode: .create).json)
      }
      return steps
    case .update:
      let lookup = try extract(etype, op.entity)
      let mode = serverMode(op, lookup)
      func step(_ a: Attr, _ v: JSON) -> JSON { TxStep.addTriple(lookup, .string(a.id), v, mode: mode).json }
      var steps = [step(try attr(etype, "id"), lookup)]
      for (label, value) in JSObjects.entries(op.args ?? .object([:])) ?? [] {
        steps.append(step(try attr(etype, label), value))
      }
      return steps
    case .merge:
      let lookup = try extract(etype, op.entity)
      let mode = serverMode(op, lookup)
      var steps = [TxStep.addTriple(lookup, .string(try attr(etype, "id").id), lookup, mode: mode).json]
      for (label, value) in JSObjects.entries(op.args ?? .object([:])) ?? [] {
        steps.append(TxStep.deepMergeTriple(lookup, .string(try attr(etype, label).id), value, mode: mode).json)
      }
      return steps
    case .delete:
      return [TxStep.deleteEntity(try extract(etype, op.entity), etype: etype).json]
    case .ruleParams:
      return [TxStep.ruleParams(try extract(etype, op.entity), etype: etype, op.args ?? .null).json]
    case .link, .unlink:
      let triple: (JSON, JSON, JSON) -> TxStep =
        op.action == .link ? { TxStep.addTriple($0, $1, $2) } : { TxStep.retractTriple($0, $1, $2) }
      var steps: [JSON] = []
      for (label, value) in JSObjects.entries(op.args ?? .object([:])) ?? [] {
        let fwd = attrs.forward(etype, label)
        let rev = attrs.reverse(etype, label)
        for eidB in value.arrayValue ?? [value] {
          if let fwd {
            let targetEtype = fwd.reverseIdentity?.etype ?? ""
            steps.append(triple(try extract(etype, op.entity), .string(fwd.id), try extract(targetEtype, eidB)).json)
          } else if let rev {
            steps.append(
              triple(try extract(rev.forwardIdentity.etype, eidB), .string(rev.id), try extract(etype, op.entity)).json)
          } else {
            throw .unknownLink("\(etype).\(label)", message: "TypeError: no link \(etype).\(label)")
          }
        }
      }
      return try withIdForLookup(etype, op.entity, steps)
    }
  }
}
