import Testing
import InstantCore

/// The reference client's tests (`instaql.test.ts`, listed in instaql.md §11) on the shared fixtures;
/// expected values are the reference client's own answers (exact order).
@Suite("zeneca + optimistic `tests` namespace (instaql.test.ts 46, 47, 51)", .fixturesAvailable) struct ZenecaOptimisticTests {
  @Test("46. order by date desc: nulls and missing grouped, uuid tie-break") func orderByDateDesc() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"order":{"date":"desc"}}}}"#, field: "date", transactions: Self.testsWithNumsDatesNullsAndMissing,
      [4, 3, 2, 1, 0, -1, -2, -3, -4, -5, nil, JSON.null, nil, JSON.null])
  }

  @Test("46. order by date asc: nulls and missing grouped, uuid tie-break") func orderByDateAsc() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"order":{"date":"asc"}}}}"#, field: "date", transactions: Self.testsWithNumsDatesNullsAndMissing,
      [JSON.null, nil, JSON.null, nil, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4])
  }

  @Test("46. order by num desc: nulls and missing grouped, uuid tie-break") func orderByNumDesc() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"order":{"num":"desc"}}}}"#, field: "num", transactions: Self.testsWithNumsDatesNullsAndMissing,
      [4, 3, 2, 1, 0, -1, -2, -3, -4, -5, nil, JSON.null, nil, JSON.null])
  }

  @Test("46. order by num asc: nulls and missing grouped, uuid tie-break") func orderByNumAsc() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"order":{"num":"asc"}}}}"#, field: "num", transactions: Self.testsWithNumsDatesNullsAndMissing,
      [JSON.null, nil, JSON.null, nil, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4])
  }

  @Test("47. a string-typed attr sorts by collation, asc") func orderByStringAsc() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"order":{"string":"asc"}}}}"#, field: "string", transactions: Self.testsWithStrings, ["10", "2", "a0", "Zz"])
  }

  @Test("47. a string-typed attr sorts by collation, desc") func orderByStringDesc() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"order":{"string":"desc"}}}}"#, field: "string", transactions: Self.testsWithStrings, ["Zz", "a0", "2", "10"])
  }

  @Test("51. $not includes null and missing") func notNot() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"val":{"$not":"a"}}}}}"#, field: "val", transactions: Self.testsWithValsNullAndMissing,
      ["b", "c", JSON.null, nil])
  }

  @Test("51. $ne includes null and missing") func notNe() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"val":{"$ne":"a"}}}}}"#, field: "val", transactions: Self.testsWithValsNullAndMissing,
      ["b", "c", JSON.null, nil])
  }
}
