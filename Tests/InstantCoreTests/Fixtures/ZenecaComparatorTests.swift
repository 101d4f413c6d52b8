import Testing
import InstantCore

/// The reference client's tests (`instaql.test.ts`, listed in instaql.md §11) on the shared fixtures;
/// expected values are the reference client's own answers (exact order).
@Suite("zeneca + optimistic `tests`: comparators (instaql.test.ts 52)", .fixturesAvailable) struct ZenecaComparatorTests {
  @Test("52. string $gt 2") func cmp_string_gt_2() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"string":{"$gt":"2"}}}}}"#, field: "string", transactions: Self.testsNumberedZeroToFour, ["3", "4"])
  }

  @Test("52. string $gte 2") func cmp_string_gte_2() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"string":{"$gte":"2"}}}}}"#, field: "string", transactions: Self.testsNumberedZeroToFour, ["2", "3", "4"])
  }

  @Test("52. string $lt 2") func cmp_string_lt_2() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"string":{"$lt":"2"}}}}}"#, field: "string", transactions: Self.testsNumberedZeroToFour, ["0", "1"])
  }

  @Test("52. string $lte 2") func cmp_string_lte_2() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"string":{"$lte":"2"}}}}}"#, field: "string", transactions: Self.testsNumberedZeroToFour, ["0", "1", "2"])
  }

  @Test("52. num $gt 2") func cmp_num_gt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$gt":2}}}}}"#, field: "num", transactions: Self.testsNumberedZeroToFour, [3, 4])
  }

  @Test("52. num $gte 2") func cmp_num_gte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$gte":2}}}}}"#, field: "num", transactions: Self.testsNumberedZeroToFour, [2, 3, 4])
  }

  @Test("52. num $lt 2") func cmp_num_lt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$lt":2}}}}}"#, field: "num", transactions: Self.testsNumberedZeroToFour, [0, 1])
  }

  @Test("52. num $lte 2") func cmp_num_lte_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"num":{"$lte":2}}}}}"#, field: "num", transactions: Self.testsNumberedZeroToFour, [0, 1, 2])
  }

  @Test("52. date $gt 2") func cmp_date_gt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$gt":2}}}}}"#, field: "date", transactions: Self.testsNumberedZeroToFour, [3, 4])
  }

  @Test("52. date $gte 2") func cmp_date_gte_2() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"date":{"$gte":2}}}}}"#, field: "date", transactions: Self.testsNumberedZeroToFour, [2, 3, 4])
  }

  @Test("52. date $lt 2") func cmp_date_lt_2() throws {
    try expectFixture(.zeneca, #"{"tests":{"$":{"where":{"date":{"$lt":2}}}}}"#, field: "date", transactions: Self.testsNumberedZeroToFour, [0, 1])
  }

  @Test("52. date $lte 2") func cmp_date_lte_2() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"date":{"$lte":2}}}}}"#, field: "date", transactions: Self.testsNumberedZeroToFour, [0, 1, 2])
  }

  @Test("52. date $lt 2027-01-15T08:00:00.000Z") func cmp_date_lt_20270115T080000000Z() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"date":{"$lt":"2027-01-15T08:00:00.000Z"}}}}}"#, field: "date", transactions: Self.testsNumberedZeroToFour,
      [0, 1, 2, 3, 4])
  }

  @Test("52. date $gt 2027-01-15T08:00:00.000Z") func cmp_date_gt_20270115T080000000Z() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"date":{"$gt":"2027-01-15T08:00:00.000Z"}}}}}"#, field: "date", transactions: Self.testsNumberedZeroToFour,
      [])
  }

  @Test("52. boolean $gt True") func cmp_boolean_gt_True() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"boolean":{"$gt":true}}}}}"#, field: "boolean", transactions: Self.testsNumberedZeroToFour, [])
  }

  @Test("52. boolean $gte True") func cmp_boolean_gte_True() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"boolean":{"$gte":true}}}}}"#, field: "boolean", transactions: Self.testsNumberedZeroToFour,
      [true, true, true])
  }

  @Test("52. boolean $lt True") func cmp_boolean_lt_True() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"boolean":{"$lt":true}}}}}"#, field: "boolean", transactions: Self.testsNumberedZeroToFour, [false, false])
  }

  @Test("52. boolean $lte True") func cmp_boolean_lte_True() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"boolean":{"$lte":true}}}}}"#, field: "boolean", transactions: Self.testsNumberedZeroToFour,
      [true, false, true, false, true])
  }

  @Test("52. boolean $gt False") func cmp_boolean_gt_False() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"boolean":{"$gt":false}}}}}"#, field: "boolean", transactions: Self.testsNumberedZeroToFour,
      [true, true, true])
  }

  @Test("52. boolean $lt False") func cmp_boolean_lt_False() throws {
    try expectFixture(
      .zeneca, #"{"tests":{"$":{"where":{"boolean":{"$lt":false}}}}}"#, field: "boolean", transactions: Self.testsNumberedZeroToFour, [])
  }
}
