import Testing
import InstantCore

/// The reference client's tests (`instaql.test.ts`, listed in instaql.md §11) on the shared fixtures;
/// expected values are the reference client's own answers (exact order).
@Suite("zeneca + optimistic `tests`: comparators (instaql.test.ts 52)", .fixturesAvailable) struct ZenecaComparatorTests {
  static let transactions1 = #"""
  [
    [
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000001","forward-identity":["f7000000-0000-4000-8000-000000000001","tests","id"],"value-type":"blob","cardinality":"one","unique?":true,"index?":false}],
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000002","forward-identity":["f7000000-0000-4000-8000-000000000002","tests","field"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false}],
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000003","forward-identity":["f7000000-0000-4000-8000-000000000003","tests","date"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,"checked-data-type":"date"}],
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000004","forward-identity":["f7000000-0000-4000-8000-000000000004","tests","num"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,"checked-data-type":"number"}],
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000005","forward-identity":["f7000000-0000-4000-8000-000000000005","tests","string"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,"checked-data-type":"string"}],
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000006","forward-identity":["f7000000-0000-4000-8000-000000000006","tests","val"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false}],
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000007","forward-identity":["f7000000-0000-4000-8000-000000000007","tests","undefinedVal"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false}],
      ["add-attr",{"id":"a7000000-0000-4000-8000-000000000008","forward-identity":["f7000000-0000-4000-8000-000000000008","tests","boolean"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false,"checked-data-type":"boolean"}],
      ["add-triple","70000090-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000001","70000090-0000-4000-8000-000000000000"],
      ["add-triple","70000090-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000005","0"],
      ["add-triple","70000090-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000004",0],
      ["add-triple","70000090-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000003",0],
      ["add-triple","70000090-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000008",true],
      ["add-triple","70000091-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000001","70000091-0000-4000-8000-000000000000"],
      ["add-triple","70000091-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000005","1"],
      ["add-triple","70000091-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000004",1],
      ["add-triple","70000091-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000003",1],
      ["add-triple","70000091-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000008",false],
      ["add-triple","70000092-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000001","70000092-0000-4000-8000-000000000000"],
      ["add-triple","70000092-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000005","2"],
      ["add-triple","70000092-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000004",2],
      ["add-triple","70000092-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000003",2],
      ["add-triple","70000092-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000008",true],
      ["add-triple","70000093-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000001","70000093-0000-4000-8000-000000000000"],
      ["add-triple","70000093-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000005","3"],
      ["add-triple","70000093-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000004",3],
      ["add-triple","70000093-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000003",3],
      ["add-triple","70000093-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000008",false],
      ["add-triple","70000094-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000001","70000094-0000-4000-8000-000000000000"],
      ["add-triple","70000094-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000005","4"],
      ["add-triple","70000094-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000004",4],
      ["add-triple","70000094-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000003",4],
      ["add-triple","70000094-0000-4000-8000-000000000000","a7000000-0000-4000-8000-000000000008",true]
    ]
  ]
  """#

  @Test("52. string $gt 2") func cmp_string_gt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"string":{"$gt":"2"}}}}}"#, field: "string", transactions: Self.transactions1, ["3", "4"])
  }

  @Test("52. string $gte 2") func cmp_string_gte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"string":{"$gte":"2"}}}}}"#, field: "string", transactions: Self.transactions1, ["2", "3", "4"])
  }

  @Test("52. string $lt 2") func cmp_string_lt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"string":{"$lt":"2"}}}}}"#, field: "string", transactions: Self.transactions1, ["0", "1"])
  }

  @Test("52. string $lte 2") func cmp_string_lte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"string":{"$lte":"2"}}}}}"#, field: "string", transactions: Self.transactions1, ["0", "1", "2"])
  }

  @Test("52. num $gt 2") func cmp_num_gt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$gt":2}}}}}"#, field: "num", transactions: Self.transactions1, [3, 4])
  }

  @Test("52. num $gte 2") func cmp_num_gte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$gte":2}}}}}"#, field: "num", transactions: Self.transactions1, [2, 3, 4])
  }

  @Test("52. num $lt 2") func cmp_num_lt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$lt":2}}}}}"#, field: "num", transactions: Self.transactions1, [0, 1])
  }

  @Test("52. num $lte 2") func cmp_num_lte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$lte":2}}}}}"#, field: "num", transactions: Self.transactions1, [0, 1, 2])
  }

  @Test("52. date $gt 2") func cmp_date_gt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$gt":2}}}}}"#, field: "date", transactions: Self.transactions1, [3, 4])
  }

  @Test("52. date $gte 2") func cmp_date_gte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$gte":2}}}}}"#, field: "date", transactions: Self.transactions1, [2, 3, 4])
  }

  @Test("52. date $lt 2") func cmp_date_lt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$lt":2}}}}}"#, field: "date", transactions: Self.transactions1, [0, 1])
  }

  @Test("52. date $lte 2") func cmp_date_lte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$lte":2}}}}}"#, field: "date", transactions: Self.transactions1, [0, 1, 2])
  }

  @Test("52. date $lt 2027-01-15T08:00:00.000Z") func cmp_date_lt_20270115T080000000Z() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$lt":"2027-01-15T08:00:00.000Z"}}}}}"#, field: "date", transactions: Self.transactions1, [0, 1, 2, 3, 4])
  }

  @Test("52. date $gt 2027-01-15T08:00:00.000Z") func cmp_date_gt_20270115T080000000Z() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$gt":"2027-01-15T08:00:00.000Z"}}}}}"#, field: "date", transactions: Self.transactions1, [])
  }

  @Test("52. boolean $gt True") func cmp_boolean_gt_True() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"boolean":{"$gt":true}}}}}"#, field: "boolean", transactions: Self.transactions1, [])
  }

  @Test("52. boolean $gte True") func cmp_boolean_gte_True() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"boolean":{"$gte":true}}}}}"#, field: "boolean", transactions: Self.transactions1, [true, true, true])
  }

  @Test("52. boolean $lt True") func cmp_boolean_lt_True() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"boolean":{"$lt":true}}}}}"#, field: "boolean", transactions: Self.transactions1, [false, false])
  }

  @Test("52. boolean $lte True") func cmp_boolean_lte_True() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"boolean":{"$lte":true}}}}}"#, field: "boolean", transactions: Self.transactions1, [true, false, true, false, true])
  }

  @Test("52. boolean $gt False") func cmp_boolean_gt_False() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"boolean":{"$gt":false}}}}}"#, field: "boolean", transactions: Self.transactions1, [true, true, true])
  }

  @Test("52. boolean $lt False") func cmp_boolean_lt_False() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"boolean":{"$lt":false}}}}}"#, field: "boolean", transactions: Self.transactions1, [])
  }
}
