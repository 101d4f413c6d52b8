package import InstantCore
internal import OrderedCollections

/// One client's share of the data, and the generator of its random writes. Each write is applied
/// here when the client reports it enqueued.
///
/// The client alone writes its lists, items and tags, so its own order decides every outcome. It
/// also writes the shared boards (``ChaosSchema/sharedKeys``), always through a lookup on `key`,
/// never deleting one: its own attribute on each board (`c<index>`) and its items' links to
/// boards are still decided by its order alone; `title`, which every client writes, must end as
/// one of the clients' last values (``ChaosState/choices``).
package struct ChaosClientModel: Sendable {
  /// This client's index: its attribute on boards, and part of every title it writes.
  package let client: Int
  /// Writes generated so far: with ``client``, makes every title written unique.
  var sequence = 0
  var lists: [String: [String: JSON]] = [:]
  var items: [String: [String: JSON]] = [:]
  var tags: [String: [String: JSON]] = [:]
  /// item → its list (the one-to-many link).
  var itemList: [String: String] = [:]
  /// item → its tags (the many-to-many link).
  var itemTags: [String: Set<String>] = [:]
  /// Board key → the board's attributes this client wrote (`key`, its own attribute), for every
  /// board this client wrote: those exist on the server from then on.
  var boards: [String: [String: JSON]] = [:]
  /// Board key → the last title this client wrote there.
  var boardTitles: [String: JSON] = [:]
  /// item → its board's key (the one-to-many link, written from either side).
  var itemBoard: [String: String] = [:]

  /// At most this many entities of each kind, so deletes keep up with creates.
  static let perKind = 25

  package init(client: Int = 0) {
    self.client = client
  }

  /// A random write (one op, or a batch of several) over this client's entities, and the model
  /// after it. The model is only kept when the write is reported enqueued.
  package func nextWrite(using rng: inout SplitMix) -> (ops: [InstaMLOp], after: ChaosClientModel) {
    var model = self
    model.sequence += 1
    if rng.chance(0.12) {
      // A batch touches each entity once: the order of steps inside one transaction is the
      // server's business, not something the model should guess.
      var ops: [InstaMLOp] = []
      var touched: Set<String> = []
      for _ in 0..<Int.random(in: 2...4, using: &rng) {
        var candidate = model
        let op = candidate.randomOp(allowDelete: false, using: &rng)
        guard touched.isDisjoint(with: op.touchedIDs) else { continue }
        touched.formUnion(op.touchedIDs)
        ops.append(op)
        model = candidate
      }
      return (ops, model)
    }
    let op = model.randomOp(allowDelete: true, using: &rng)
    return ([op], model)
  }

  /// The expected data of this client's entities.
  package var state: ChaosState {
    var state = ChaosState()
    for (namespace, entities) in [("lists", lists), ("items", items), ("tags", tags)] {
      for (id, attributes) in entities { state.entities["\(namespace)/\(id)"] = attributes }
    }
    for (item, list) in itemList { state.links.insert("lists/\(list)/items/\(item)") }
    for (item, tags) in itemTags {
      for tag in tags { state.links.insert("items/\(item)/tags/\(tag)") }
    }
    for (key, attributes) in boards { state.entities["boards/\(key)"] = attributes }
    for (key, title) in boardTitles { state.choices["boards/\(key).title"] = [title] }
    for (item, key) in itemBoard { state.links.insert("boards/\(key)/items/\(item)") }
    return state
  }

  private mutating func randomOp(allowDelete: Bool, using rng: inout SplitMix) -> InstaMLOp {
    if rng.chance(0.2) { return sharedOp(using: &rng) }
    let roll = Int.random(in: 0..<100, using: &rng)
    let namespace = ["lists", "items", "items", "tags"].randomElement(using: &rng)!
    let existing = Array(entities(namespace).keys).sorted()
    if existing.isEmpty || (roll < 22 && existing.count < Self.perKind) {
      return create(namespace, using: &rng)
    }
    let id = existing.randomElement(using: &rng)!
    switch roll {
    case ..<50:
      return update(namespace, id, using: &rng)
    case ..<60 where allowDelete:
      return delete(namespace, id)
    case ..<80:
      return linkListItem(using: &rng) ?? update(namespace, id, using: &rng)
    default:
      return linkItemTag(using: &rng) ?? update(namespace, id, using: &rng)
    }
  }

  private func entities(_ namespace: String) -> [String: [String: JSON]] {
    switch namespace {
    case "lists": lists
    case "items": items
    default: tags
    }
  }

  private mutating func set(_ namespace: String, _ id: String, _ attributes: [String: JSON]?) {
    switch namespace {
    case "lists": lists[id] = attributes
    case "items": items[id] = attributes
    default: tags[id] = attributes
    }
  }

  private static func randomValues(_ namespace: String, all: Bool, using rng: inout SplitMix) -> [String: JSON] {
    let word = ["run", "read", "fix", "ship", "plan", "bake", "walk", "call"]
    var values: [String: JSON]
    switch namespace {
    case "lists":
      values = [
        "title": .string("\(word.randomElement(using: &rng)!) \(Int.random(in: 0..<1000, using: &rng))"),
        "rank": .number(Double(Int.random(in: -500...500, using: &rng))),
      ]
    case "items":
      values = [
        "text": .string("\(word.randomElement(using: &rng)!)-\(Int.random(in: 0..<100_000, using: &rng))"),
        "n": .number(Double(Int.random(in: 0..<1_000_000, using: &rng)) / 8),
        "done": .bool(rng.chance(0.5)),
      ]
    default:
      values = ["name": .string("#\(word.randomElement(using: &rng)!)\(Int.random(in: 0..<50, using: &rng))")]
    }
    if !all {
      let keep = values.keys.sorted().filter { _ in rng.chance(0.6) }
      let subset = values.filter { keep.contains($0.key) }
      if !subset.isEmpty { values = subset } else { values = [values.keys.sorted()[0]: values[values.keys.sorted()[0]]!] }
    }
    return values
  }

  private mutating func create(_ namespace: String, using rng: inout SplitMix) -> InstaMLOp {
    let id = InstantID.make(using: &rng)
    let values = Self.randomValues(namespace, all: true, using: &rng)
    set(namespace, id, values)
    return .create(namespace, .id(id), object(values))
  }

  private mutating func update(_ namespace: String, _ id: String, using rng: inout SplitMix) -> InstaMLOp {
    let values = Self.randomValues(namespace, all: false, using: &rng)
    set(namespace, id, entities(namespace)[id]!.merging(values) { _, new in new })
    return .update(namespace, .id(id), object(values))
  }

  private mutating func delete(_ namespace: String, _ id: String) -> InstaMLOp {
    set(namespace, id, nil)
    switch namespace {
    case "lists": itemList = itemList.filter { $0.value != id }
    case "items":
      itemList[id] = nil
      itemTags[id] = nil
      itemBoard[id] = nil
    default:
      for item in itemTags.keys { itemTags[item]?.remove(id) }
      itemTags = itemTags.filter { !$0.value.isEmpty }
    }
    return .delete(namespace, .id(id))
  }

  /// Links an item without a list to a list, or unlinks an item from its list.
  private mutating func linkListItem(using rng: inout SplitMix) -> InstaMLOp? {
    guard let item = items.keys.sorted().randomElement(using: &rng) else { return nil }
    if let list = itemList[item] {
      itemList[item] = nil
      return .unlink("lists", .id(list), ["items": .string(item)])
    }
    guard let list = lists.keys.sorted().randomElement(using: &rng) else { return nil }
    itemList[item] = list
    return .link("lists", .id(list), ["items": .string(item)])
  }

  /// Links an item to a tag, or unlinks them when they are linked.
  private mutating func linkItemTag(using rng: inout SplitMix) -> InstaMLOp? {
    guard let item = items.keys.sorted().randomElement(using: &rng),
      let tag = tags.keys.sorted().randomElement(using: &rng)
    else { return nil }
    if itemTags[item]?.contains(tag) == true {
      itemTags[item]?.remove(tag)
      if itemTags[item]?.isEmpty == true { itemTags[item] = nil }
      return .unlink("items", .id(item), ["tags": .string(tag)])
    }
    itemTags[item, default: []].insert(tag)
    return .link("items", .id(item), ["tags": .string(tag)])
  }

  /// A write to a shared board, by lookup: its title or this client's attribute, or a link or
  /// unlink of one of this client's items.
  private mutating func sharedOp(using rng: inout SplitMix) -> InstaMLOp {
    let key = ChaosSchema.sharedKeys.randomElement(using: &rng)!
    if rng.chance(0.45), let item = items.keys.sorted().randomElement(using: &rng) {
      if let current = itemBoard[item] {
        itemBoard[item] = nil
        return .unlink("boards", .lookup("key", .string(current)), ["items": .string(item)])
      }
      // From the item's side the board is a lookup in the link's value, which the server only
      // resolves, so only for a board this client wrote in an earlier write (a batch touches a
      // board once): that write lands first. From the board's side the lookup may create it.
      let wroteBefore = boards[key] != nil
      if !wroteBefore { boards[key] = ["key": .string(key)] }
      itemBoard[item] = key
      if wroteBefore, rng.chance(0.5) {
        return .link("items", .id(item), ["board": ["key": .string(key)]])
      }
      return .link("boards", .lookup("key", .string(key)), ["items": .string(item)])
    }
    var values: [String: JSON] = [:]
    let own = ChaosSchema.clientAttribute(client)
    if own == nil || rng.chance(0.6) {
      let title = JSON.string("c\(client)-\(sequence)")
      values["title"] = title
      boardTitles[key] = title
    }
    if let own, values.isEmpty || rng.chance(0.5) { values[own] = .number(Double(sequence)) }
    var board = boards[key] ?? ["key": .string(key)]
    if let own, let value = values[own] { board[own] = value }
    boards[key] = board
    return .update("boards", .lookup("key", .string(key)), object(values))
  }

  private func object(_ values: [String: JSON]) -> JSONObject {
    var object = JSONObject()
    for key in values.keys.sorted() { object[key] = values[key] }
    return object
  }
}

extension InstaMLOp {
  /// The entities this op writes: its own, and those it links or unlinks (a lookup named the
  /// same way in either position).
  var touchedIDs: Set<String> {
    var ids: Set<String> = [Self.name(entity)]
    if action == .link || action == .unlink {
      for (_, value) in args?.objectValue ?? [:] { ids.insert(Self.name(value)) }
    }
    return ids
  }

  /// Ops that name an entity by a lookup, as the entity or as a link's target.
  package var usesLookup: Bool {
    if entity.stringValue == nil { return true }
    guard action == .link || action == .unlink else { return false }
    return (args?.objectValue ?? [:]).contains { $0.value.stringValue == nil }
  }

  /// Ops that write a shared entity (a board, or its link to an item).
  package var writesShared: Bool {
    ChaosSchema.keyedBy[etype] != nil
      || ((action == .link || action == .unlink) && (args?.objectValue ?? [:]).keys.contains("board"))
  }

  private static func name(_ entity: JSON) -> String {
    switch entity {
    case let .string(id): return id
    case let .array(pair) where pair.count == 2: return "\(pair[0].stringValue ?? "?")=\(pair[1].serialized())"
    case let .object(pair) where pair.count == 1:
      return pair.elements.first.map { "\($0.key)=\($0.value.serialized())" } ?? entity.serialized()
    default: return entity.serialized()
    }
  }

  /// `[action, etype, entity, args, opts]`, as the parent sends a write to a client process.
  var wire: JSON { [.string(action.rawValue), .string(etype), entity, args ?? .null, opts ?? .null] }

  init?(wire: JSON) {
    guard let parts = wire.arrayValue, parts.count == 5, let name = parts[0].stringValue,
      let action = Action(rawValue: name), let etype = parts[1].stringValue
    else { return nil }
    self.init(
      action, etype, parts[2], parts[3] == .null ? nil : parts[3], opts: parts[4] == .null ? nil : parts[4])
  }
}
