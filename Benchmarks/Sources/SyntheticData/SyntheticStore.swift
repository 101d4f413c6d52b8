import InstantCore

/// A store we generate: `items` (title, category, rank: indexed number, done) each linked to one
/// of `owners` (name) and to a few `tags`, with deterministic ids and values.
public enum SyntheticStore {
  static let itemID = "a1000000-0000-4000-8000-000000000001"
  static let itemTitle = "a1000000-0000-4000-8000-000000000002"
  static let itemCategory = "a1000000-0000-4000-8000-000000000003"
  static let itemRank = "a1000000-0000-4000-8000-000000000004"
  static let itemDone = "a1000000-0000-4000-8000-000000000005"
  static let ownerID = "a1000000-0000-4000-8000-000000000006"
  static let ownerName = "a1000000-0000-4000-8000-000000000007"
  static let itemOwner = "a1000000-0000-4000-8000-000000000008"
  static let tagID = "a1000000-0000-4000-8000-000000000009"
  static let tagName = "a1000000-0000-4000-8000-00000000000a"
  static let itemTags = "a1000000-0000-4000-8000-00000000000b"

  public static var attrs: AttrStore {
    func blob(_ id: String, _ etype: String, _ label: String, type: String? = nil, unique: Bool = false, indexed: Bool = false) -> Attr {
      Attr(id: id, forward: Ident(id: id + "f", etype: etype, label: label), unique: unique, indexed: indexed, checkedDataType: type)
    }
    return AttrStore([
      blob(itemID, "items", "id", unique: true, indexed: true),
      blob(itemTitle, "items", "title", type: "string"),
      blob(itemCategory, "items", "category", type: "string", indexed: true),
      blob(itemRank, "items", "rank", type: "number", indexed: true),
      blob(itemDone, "items", "done", type: "boolean"),
      blob(ownerID, "owners", "id", unique: true, indexed: true),
      blob(ownerName, "owners", "name", type: "string"),
      blob(tagID, "tags", "id", unique: true, indexed: true),
      blob(tagName, "tags", "name", type: "string"),
      Attr(
        id: itemOwner, forward: Ident(id: "fo", etype: "items", label: "owner"),
        reverse: Ident(id: "ro", etype: "owners", label: "items"), valueType: "ref", cardinality: .one),
      Attr(
        id: itemTags, forward: Ident(id: "ft", etype: "items", label: "tags"),
        reverse: Ident(id: "rt", etype: "tags", label: "items"), valueType: "ref", cardinality: .many),
    ])
  }

  static func id(_ prefix: UInt32, _ n: Int) -> String {
    let hex = String(n, radix: 16)
    let tail = String(repeating: "0", count: 12 - hex.count) + hex
    return String(format8(prefix)) + "-0000-4000-8000-" + tail
  }

  static func format8(_ v: UInt32) -> String {
    let hex = String(v, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// `items` entities with their owners and tags: about 9 triples per item.
  public static func triples(items: Int) -> [Triple] {
    let owners = max(1, items / 10)
    let tags = 50
    var out: [Triple] = []
    out.reserveCapacity(items * 10 + owners * 2 + tags * 2)
    var t = 1_700_000_000_000.0
    for o in 0..<owners {
      let e = id(0xb0000000, o)
      out.append(Triple(e, ownerID, .string(e), t))
      out.append(Triple(e, ownerName, .string("Owner \(o)"), t))
      t += 1
    }
    for g in 0..<tags {
      let e = id(0xc0000000, g)
      out.append(Triple(e, tagID, .string(e), t))
      out.append(Triple(e, tagName, .string("tag-\(g)"), t))
      t += 1
    }
    var seed: UInt64 = 42
    func next() -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: seed >> 33)
    }
    for i in 0..<items {
      let e = id(0xa0000000, i)
      out.append(Triple(e, itemID, .string(e), t))
      out.append(Triple(e, itemTitle, .string("Item number \(i) with a title"), t))
      out.append(Triple(e, itemCategory, .string("c\(next() % 50)"), t))
      out.append(Triple(e, itemRank, .number(Double(next() % 1_000_000)), t))
      out.append(Triple(e, itemDone, .bool(next() % 2 == 0), t))
      out.append(Triple(e, itemOwner, .string(id(0xb0000000, next() % owners)), t))
      for k in 0..<3 { out.append(Triple(e, itemTags, .string(id(0xc0000000, (i + k * 7) % tags)), t)) }
      t += 1
    }
    return out
  }

  /// Query shapes over a 10k-item store (`Benchmarks/Shapes/zeneca-shapes.json` holds the same
  /// shapes over the zeneca fixture), by name.
  public static let shapes: [(name: String, query: JSON)] = [
    ("small result (where id)", ["items": ["$": ["where": ["id": .string(id(0xa0000000, 4242))]]]]),
    (
      "$like scan + order + limit",
      ["items": ["$": ["where": ["title": ["$like": "%99%"]], "order": ["rank": "desc"], "limit": 20]]]
    ),
    ("$ilike filter + reverse-link join", ["owners": ["$": ["where": ["name": ["$ilike": "owner 1_"]]], "items": [:]]]),
    ("order + limit", ["items": ["$": ["order": ["rank": "asc"], "limit": 20]]]),
    ("dotted path", ["items": ["$": ["where": ["owner.name": "Owner 7"]]]]),
    (
      "or / and",
      ["items": ["$": ["where": ["or": [["category": "c1"], ["and": [["done": true], ["rank": ["$gt": 990_000]]]]]], "limit": 50]]]
    ),
    ("nested includes", ["owners": ["$": ["where": ["name": "Owner 3"]], "items": ["tags": [:]]]]),
    ("whole namespace (1k owners)", ["owners": [:]]),
  ]

  /// where + order + limit + a nested link: the 20 highest-ranked items of one category, with owners.
  public static let query: JSON = [
    "items": ["$": ["where": ["category": "c7"], "order": ["rank": "desc"], "limit": 20], "owner": [:]]
  ]
}
