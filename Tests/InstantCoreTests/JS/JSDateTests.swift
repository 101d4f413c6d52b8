import Testing
@testable import InstantCore

/// `new Date(string).getTime()` as V8 computes it (values from node with `TZ=UTC`, as the oracle
/// pins). Date-typed comparisons and ordering go through this parse.
@Suite("JSDate.parse") struct JSDateTests {
  static let cases: [(String, Double)] = [
    ("2021-01-07 18:51:23.742637", 1610045483742),
    ("2021-01-07T18:51:23Z", 1610045483000),
    ("2021-01-07", 1609977600000),
    ("2021-1-7", 1609977600000),
    ("2021/01/07", 1609977600000),
    ("01/07/2021", 1609977600000),
    ("Jan 7 2021", 1609977600000),
    ("7 Jan 2021", 1609977600000),
    ("January 7, 2021 10:00:00", 1610013600000),
    ("Thu, 07 Jan 2021 18:51:23 GMT", 1610045483000),
    ("2021-01-07T18:51:23+02:00", 1610038283000),
    ("Thu Jan 07 2021 18:51:23 GMT+0000 (Coordinated Universal Time)", 1610045483000),
    ("2021-02-30", 1614643200000),
    ("12:00 2021-01-07", 1610020800000),
    ("Jan 2021", 1609459200000),
    ("7.1.2021", 1625097600000),
    ("2021-01-07 18:51:23 PST", 1610074283000),
    ("99999-01-01", 3093496444800000),
    ("2021", 1609459200000),
    ("2021-01", 1609459200000),
    ("+002021-01-07T00:00:00Z", 1609977600000),
    ("  2021-01-07  ", 1609977600000),
    ("Sat, 01 Jan 2000 00:00:00 +0100", 946681200000),
    ("2021-01-07T24:00:00Z", 1610064000000),
    ("2021-01-07T18:51", 1610045460000),
  ]

  @Test("parses like V8", arguments: cases)
  func parse(_ input: String, _ expected: Double) {
    #expect(JSDate.parse(input) == expected, "\(input)")
  }

  @Test("unparseable input is NaN", arguments: ["garbage", "1e12", "20000101", ""])
  func invalid(_ input: String) {
    #expect(JSDate.parse(input).isNaN)
  }
}

/// The same parse seen through a query: a date-typed attr compared against an ISO string.
@Suite("date-typed comparisons") struct DateComparisonTests {
  @Test("values in V8-only formats compare by their time") func legacyFormatsInWhere() throws {
    let attrs: JSON = [
      ["id": "t-id", "forward-identity": ["f1", "t", "id"], "value-type": "blob", "cardinality": "one"],
      ["id": "t-d", "forward-identity": ["f2", "t", "d"], "value-type": "blob", "cardinality": "one", "checked-data-type": "date"],
    ]
    let values: [JSON] = ["2021/01/07", "Thu Jan 07 2021 18:51:23 GMT+0000 (Coordinated Universal Time)", "2021-01-07T18:51:23Z"]
    var rows: [JSON] = []
    for (i, value) in values.enumerated() {
      let e = JSON.string("00000000-0000-4000-8000-00000000000\(i + 1)")
      rows += [[e, "t-id", e, 1], [e, "t-d", value, 1]]
    }
    let store = try TripleStore(attrs: AttrStore(json: attrs), tripleRows: rows)
    let after = try store.query(["t": ["$": ["where": ["d": ["$gt": "2021-01-07T12:00:00Z"]], "fields": ["d"]]]])
    let before = try store.query(["t": ["$": ["where": ["d": ["$lte": "2021-01-07T12:00:00Z"]], "fields": ["d"]]]])
    // Reference: $gt → the toString() form and the ISO form; $lte → "2021/01/07".
    expectEqual(after.data["t"]?.arrayValue?.compactMap { $0["d"] }, [values[1], values[2]])
    expectEqual(before.data["t"]?.arrayValue?.compactMap { $0["d"] }, [values[0]])
  }
}
