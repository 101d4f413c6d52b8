import Testing
@testable import InstantCore
internal import OrderedCollections

/// A leading form with a count limit picks its first entities without sorting every answer
/// (``QueryRun/smallest(_:of:by:)``); it must list exactly the first entities of the full
/// order, ties (equal times, equal values, ids equal as bytes) included.
@Suite("limit window") struct LimitWindowTests {
  static let attrs = AttrStore([
    Attr(id: "w-id", forward: Ident(id: "f-w-id", etype: "w", label: "id"), unique: true, indexed: true),
    Attr(id: "w-num", forward: Ident(id: "f-w-num", etype: "w", label: "num")),
    Attr(id: "w-rank", forward: Ident(id: "f-w-rank", etype: "w", label: "rank"), checkedDataType: "number"),
  ])

  /// 150 entities over three creation times, numbers with repeats, some missing or null, and two
  /// ids that differ only in case (the same UUID bits) with the same time and values.
  static func store() -> TripleStore {
    var triples: [Triple] = []
    var seed: UInt64 = 3
    func next(_ n: UInt64) -> UInt64 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (seed >> 33) % n
    }
    var ids = (0..<148).map { i in "0000\(hex(next(65536), width: 4))-0000-4000-8000-\(hex(UInt64(i), width: 12))" }
    ids.append("abcdef00-0000-4000-8000-00000000000a")
    ids.append("ABCDEF00-0000-4000-8000-00000000000A")
    for (i, id) in ids.enumerated() {
      if i >= 148 {
        // The pair tie on everything but input order, and come first in ascending orders.
        triples += [Triple(id, "w-id", .string(id), 1000), Triple(id, "w-num", 0, 1000), Triple(id, "w-rank", 0, 1000)]
        continue
      }
      let t = Double(1000 * (1 + next(3)))
      triples.append(Triple(id, "w-id", .string(id), t))
      switch next(5) {
      case 0: break
      case 1: triples.append(Triple(id, "w-num", .null, t))
      default: triples.append(Triple(id, "w-num", .number(Double(next(12))), t))
      }
      if i % 7 != 0 { triples.append(Triple(id, "w-rank", .number(Double(next(4))), t)) }
    }
    return TripleStore(attrs: attrs, triples: triples)
  }

  static func hex(_ v: UInt64, width: Int) -> String {
    let digits = String(v, radix: 16)
    return String(repeating: "0", count: width - digits.count) + digits
  }

  static func ids(_ store: TripleStore, _ options: JSON) throws -> [String] {
    let result = try store.query(["w": ["$": options]])
    return (result.data["w"]?.arrayValue ?? []).map { $0["id"]?.stringValue ?? "?" }
  }

  @Test(
    "the first entities of every order, for limits from 1 to past the end",
    arguments: [
      [:], ["order": ["serverCreatedAt": "desc"]], ["order": ["num": "asc"]], ["order": ["num": "desc"]],
      ["order": ["rank": "asc"]], ["order": ["rank": "desc"]], ["where": ["num": ["$gt": 3]], "order": ["rank": "desc"]],
    ] as [JSONObject])
  func prefixOfFullOrder(options: JSONObject) throws {
    let store = Self.store()
    let all = try Self.ids(store, .object(options))
    #expect(all.count > 20)
    for limit in [1, 2, 5, 17, 64, 65, all.count - 1, all.count, all.count + 3] {
      var limited = options
      limited["limit"] = .number(Double(limit))
      expectEqual(try Self.ids(store, .object(limited)), Array(all.prefix(limit)), "limit \(limit), \(options)")
    }
  }
}
