import Testing
@testable import InstantCore

/// Strings are JavaScript strings: sequences of UTF-16 code units. Canonically equivalent spellings
/// (`"é"` U+00E9 and `"e\u{301}"`) are different values, and `checked-data-type: "string"` orders by
/// ICU `en-US` collation down to its last (tertiary) level. Expected values from the reference client.
@Suite("Unicode strings") struct UnicodeStringTests {
  static let attrs: JSON = [
    ["id": "t-id", "forward-identity": ["f1", "t", "id"], "value-type": "blob", "cardinality": "one"],
    ["id": "t-s", "forward-identity": ["f2", "t", "s"], "value-type": "blob", "cardinality": "one", "checked-data-type": "string"],
    ["id": "t-u", "forward-identity": ["f3", "t", "u"], "value-type": "blob", "cardinality": "one"],
  ]

  static func id(_ n: Int) -> String {
    let hex = String(n, radix: 16)
    return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
  }

  /// Entities 1…n in the `t` namespace, all created at the same time, with `attr` = `values[i]`.
  static func store(_ attr: String, _ values: [String]) throws -> TripleStore {
    var rows: [JSON] = []
    for (i, value) in values.enumerated() {
      let e = JSON.string(id(i + 1))
      rows += [[e, "t-id", e, 1], [e, .string(attr), .string(value), 1]]
    }
    return try TripleStore(attrs: AttrStore(json: attrs), tripleRows: rows)
  }

  /// The UTF-16 code units of `member` in each row (Swift `String ==` would hide the difference).
  static func units(_ result: InstaQLResult, _ member: String) throws -> [[UInt16]] {
    try #require(result.data["t"]?.arrayValue).map { Array(($0[member]?.stringValue ?? "").utf16) }
  }

  static func rowIds(_ result: InstaQLResult) throws -> [String] {
    try #require(result.data["t"]?.arrayValue).compactMap { $0["id"]?.stringValue }
  }

  static let tertiaryValues = ["\u{FF5A}", "z", "\u{FF3A}", "Z", "\u{FF11}", "1", "\u{FF76}", "\u{30AB}", "\u{304B}", "\u{A0}", " "]

  @Test("string-typed order separates width, kana and space variants (ICU tertiary level)") func tertiaryAsc() throws {
    let store = try Self.store("t-s", Self.tertiaryValues)
    let result = try store.query(["t": ["$": ["order": ["s": "asc"], "fields": ["s"]]]])
    try expectEqual(
      Self.units(result, "s"),
      [" ", "\u{A0}", "1", "\u{FF11}", "z", "\u{FF5A}", "Z", "\u{FF3A}", "\u{304B}", "\u{30AB}", "\u{FF76}"].map { Array($0.utf16) })
  }

  @Test("string-typed desc is the exact reverse") func tertiaryDesc() throws {
    let store = try Self.store("t-s", Self.tertiaryValues)
    let result = try store.query(["t": ["$": ["order": ["s": "desc"], "fields": ["s"]]]])
    try expectEqual(
      Self.units(result, "s"),
      ["\u{FF76}", "\u{30AB}", "\u{304B}", "\u{FF3A}", "Z", "\u{FF5A}", "z", "\u{FF11}", "1", "\u{A0}", " "].map { Array($0.utf16) })
  }

  @Test("canonically equivalent values are stored as written") func equivalentValuesKept() throws {
    let store = try Self.store("t-u", ["\u{E9}", "e\u{301}"])
    let result = try store.query(["t": [:]])
    try expectEqual(Self.units(result, "u"), [[0xE9], [0x65, 0x301]])
  }

  @Test("equality is code-unit equality") func equivalentValuesEquality() throws {
    let store = try Self.store("t-u", ["\u{E9}", "e\u{301}"])
    let result = try store.query(["t": ["$": ["where": ["u": "e\u{301}"]]]])
    try expectEqual(Self.rowIds(result), [Self.id(2)])
  }

  @Test("$like matches code units") func equivalentValuesLike() throws {
    let store = try Self.store("t-u", ["\u{E9}", "e\u{301}"])
    let result = try store.query(["t": ["$": ["where": ["u": ["$like": "e%"]]]]])
    try expectEqual(Self.rowIds(result), [Self.id(2)])
  }

  @Test("$not compares code units") func equivalentValuesNot() throws {
    let store = try Self.store("t-u", ["\u{E9}", "e\u{301}"])
    let result = try store.query(["t": ["$": ["where": ["u": ["$not": "\u{E9}"]]]]])
    try expectEqual(Self.rowIds(result), [Self.id(2)])
  }

  @Test("untyped order compares code units across the BMP boundary") func codeUnitOrder() throws {
    let store = try Self.store("t-u", ["\u{FF5A}", "\u{1F600}", "\u{E000}", "a"])
    let result = try store.query(["t": ["$": ["order": ["u": "asc"], "fields": ["u"]]]])
    // Code units: "a" 0061 < U+1F600 D83D… < U+E000 < U+FF5A (scalar order would put U+1F600 last).
    try expectEqual(Self.units(result, "u"), ["a", "\u{1F600}", "\u{E000}", "\u{FF5A}"].map { Array($0.utf16) })
  }
}
