import TestSupport
import Testing
@testable import InstantCore
internal import OrderedCollections

/// The client store (`transact`) and the server (`applyServerTransaction`) share their write
/// path; on steps where the reference means the same thing on both sides, they must end with the
/// same data. Random batches over every step kind, from fixed seeds, on the in-repo dataset.
struct ClientServerWriteTests {
  static let seeds: [UInt64] = [1, 7, 42, 1_234, 99_991]

  /// Queries that read every namespace, link direction and a few where forms. Rows are compared
  /// as sets: creation times differ on purpose (client clock vs server time), and so does order.
  /// No `$isNull`: the client keeps the reference's emptied value sets, which it sees as values.
  static let queries: [String] = [
    #"{"items":{"owners":{},"parent":{},"children":{},"next":{},"prev":{}}}"#,
    #"{"owners":{"items":{},"profile":{}},"profiles":{"owner":{}}}"#,
    #"{"items":{"$":{"where":{"tag":"red"}}}}"#,
    #"{"items":{"$":{"where":{"owners.handle":"ann"}}}}"#,
    #"{"items":{"$":{"where":{"num":{"$gt":0}}}}}"#,
    #"{"items":{"$":{"where":{"code":{"$in":["x","y","Bob"]}}}}}"#,
    #"{"items":{"$":{"where":{"or":[{"flag":true},{"parent.tag":"red"}]}}}}"#,
  ]

  @Test(arguments: seeds)
  func sameStepsGiveTheSameData(seed: UInt64) throws {
    var generator = StepGenerator(seed: seed)
    var client = try TestData.store()
    var server = try TestData.store()
    for round in 0..<60 {
      let batch = generator.batch(client)
      // A cascade cycle overflows the reference client's stack (a quirk we keep); the server
      // follows it once. Neither side then applies the batch.
      if try Self.isCascadeCycle(Result { () throws(StoreError) in try client.transact(batch) }) { continue }
      _ = try server.applyServerTransaction(.array(batch), now: Double(10_000 + round))
      for text in Self.queries {
        let q = try JSON.parse(text)
        let ours = Self.unordered(try client.query(q).data)
        let theirs = Self.unordered(try server.query(q).data)
        guard ours == theirs else {
          expectEqual(ours, theirs, "seed \(seed), round \(round), batch \(JSON.array(batch)), query \(text)")
          return
        }
      }
    }
  }

  static func isCascadeCycle(_ result: Result<Void, StoreError>) throws -> Bool {
    guard case let .failure(error) = result else { return false }
    if error.kind == .cascadeCycle { return true }
    throw error
  }

  /// Every list of rows sorted by id, recursively.
  static func unordered(_ value: JSON) -> JSON {
    switch value {
    case let .array(items):
      return .array(items.map(unordered).sorted { ($0["id"]?.stringValue ?? "") < ($1["id"]?.stringValue ?? "") })
    case let .object(o): return .object(o.mapValues(unordered))
    default: return value
    }
  }
}

/// Random tx-steps that both sides accept and read alike: each batch is one `delete-entity`, one
/// attr change, or a few triple steps on distinct entities (the server groups steps by op, so
/// steps on one entity could run in another order there).
struct StepGenerator {
  var rng: SeededGenerator
  var nextEntity = 0
  var addedAttrs: [String] = []
  var attrCount = 0

  init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

  static let blobAttrs = ["items-name", "items-code", "items-num", "items-flag", "items-tag"]

  mutating func batch(_ store: TripleStore) -> [JSON] {
    let items = store.triples.filter { $0.attr == "items-id" }.map(\.entity)
    switch Int.random(in: 0..<10, using: &rng) {
    case 0 where !items.isEmpty:
      return [["delete-entity", .string(items.randomElement(using: &rng)!), "items"]]
    case 1:
      return [attrStep()]
    default:
      var touched = Set<String>()
      var steps: [JSON] = []
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        steps += tripleSteps(store, items: items.filter { !touched.contains($0) }, touched: &touched)
      }
      return steps
    }
  }

  mutating func attrStep() -> JSON {
    if let attr = addedAttrs.last, Bool.random(using: &rng) {
      if Bool.random(using: &rng) {
        addedAttrs.removeLast()
        return ["delete-attr", .string(attr)]
      }
      attrCount += 1
      return ["update-attr", ["id": .string(attr), "forward-identity": [.string("f-\(attr)"), "items", .string("renamed\(attrCount)")]]]
    }
    if Int.random(in: 0..<4, using: &rng) == 0 {
      return Bool.random(using: &rng) ? ["restore-attr", "items-tag"] : ["rule-params", "items", [:]]
    }
    attrCount += 1
    let id = "items-extra\(attrCount)"
    addedAttrs.append(id)
    return [
      "add-attr",
      [
        "id": .string(id), "forward-identity": .array([.string("f-\(id)"), "items", .string("extra\(attrCount)")]),
        "value-type": "blob", "cardinality": "one", "unique?": false, "index?": false,
      ],
    ]
  }

  mutating func newID() -> String {
    nextEntity += 1
    let hex = String(nextEntity, radix: 16)
    let node = UInt64.random(in: 100_000_000_000...999_999_999_999, using: &rng)
    return "f" + String(repeating: "0", count: 7 - hex.count) + hex + "-0000-4000-8000-\(node)"
  }

  mutating func value(for attr: String) -> JSON {
    switch attr {
    case "items-name": return [.null, "a", "b", "Zz", "10"].randomElement(using: &rng)!
    case "items-num": return .number(Double(Int.random(in: -5...20, using: &rng)))
    case "items-flag": return .bool(Bool.random(using: &rng))
    case "items-tag": return ["red", "blue", "Red", .null].randomElement(using: &rng)!
    default: return [.number(Double(Int.random(in: 0...9, using: &rng))), "x", "y", .null].randomElement(using: &rng)!
    }
  }

  mutating func tripleSteps(_ store: TripleStore, items: [String], touched: inout Set<String>) -> [JSON] {
    let owners = ["a1000000-0000-4000-8000-000000000001", "a2000000-0000-4000-8000-000000000002"]
    let blobAttrs = Self.blobAttrs + addedAttrs
    guard let item = items.randomElement(using: &rng) else {
      let id = newID()
      touched.insert(id)
      return [["add-triple", .string(id), "items-id", .string(id), ["mode": "create"]]]
    }
    touched.insert(item)
    switch Int.random(in: 0..<9, using: &rng) {
    case 0:
      // A new entity: created in `create` mode, then given a value.
      let id = newID()
      touched.insert(id)
      let attr = blobAttrs.randomElement(using: &rng)!
      return [
        ["add-triple", .string(id), "items-id", .string(id), ["mode": "create"]],
        ["add-triple", .string(id), .string(attr), value(for: attr)],
      ]
    case 1:
      let attr = blobAttrs.randomElement(using: &rng)!
      return [["add-triple", .string(item), .string(attr), value(for: attr), ["mode": "update"]]]
    case 2:
      // A link to another item, its target named by id or by a lookup on `items-id`.
      guard let target = items.filter({ $0 != item }).randomElement(using: &rng) else { return [] }
      touched.insert(target)
      let attr: JSON = Bool.random(using: &rng) ? "items-parent" : "items-next"
      let value: JSON = Bool.random(using: &rng) ? .string(target) : ["items-id", .string(target)]
      return [["add-triple", .string(item), attr, value]]
    case 3:
      // An owner, named by a lookup on its unique handle, links the item.
      return [["add-triple", ["owners-handle", ["ann", "bob"].randomElement(using: &rng)!], "owners-items", .string(item)]]
    case 4:
      let meta = store.values(of: item, attr: "items-meta")
      guard !meta.isEmpty else { return [["add-triple", .string(item), "items-meta", ["x": 0]]] }
      let patch: JSON = Bool.random(using: &rng)
        ? ["x": .number(Double(Int.random(in: 0...9, using: &rng))), "nested": ["z": true]] : ["x": .null]
      return [["deep-merge-triple", .string(item), "items-meta", patch]]
    case 5:
      // Retract a value the item has (never its id).
      let triples = store.triples(of: item).filter { $0.attr != "items-id" }
      guard let t = triples.randomElement(using: &rng) else { return [] }
      if let target = t.value.stringValue, store.hasEntity(target, etype: "items") { touched.insert(target) }
      return [["retract-triple", .string(item), .string(t.attr), t.value]]
    case 6:
      return [["add-triple", .string(owners.randomElement(using: &rng)!), "owners-items", .string(item)]]
    default:
      let attr = blobAttrs.randomElement(using: &rng)!
      return [["add-triple", .string(item), .string(attr), value(for: attr)]]
    }
  }
}
