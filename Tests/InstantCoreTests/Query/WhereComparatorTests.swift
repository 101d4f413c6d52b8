import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("where: comparators") struct WhereComparatorTests {
  @Test("num $gt 5") func numberGt() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$gt":5}}}}}"#, ["i3"])
  }

  @Test("num $gte 5") func numberGte() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$gte":5}}}}}"#, ["i1", "i3", "i5"])
  }

  @Test("num $lt 1") func numberLtNullIsZero() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$lt":1}}}}}"#, ["i2", "i4"])
  }

  @Test("num $lt -3") func numberLtNegative() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$lt":-3}}}}}"#, [])
  }

  @Test("num $lte -3") func numberLte() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$lte":-3}}}}}"#, ["i4"])
  }

  @Test("date compared with an ISO string") func dateGtIso() throws {
    try expectLabels(#"{"items":{"$":{"where":{"when":{"$gt":"2023-12-31T00:00:00Z"}}}}}"#, ["i1"])
  }

  @Test("date compared with epoch ms") func dateLtEpoch() throws {
    try expectLabels(#"{"items":{"$":{"where":{"when":{"$lt":1700000000001}}}}}"#, ["i2", "i4", "i5"])
  }

  @Test("date against a date-only string") func dateGteDateOnly() throws {
    try expectLabels(#"{"items":{"$":{"where":{"when":{"$gte":"2023-06-01"}}}}}"#, ["i1", "i4", "i5"])
  }

  @Test("boolean $lte true") func booleanLteTrue() throws {
    try expectLabels(#"{"items":{"$":{"where":{"flag":{"$lte":true}}}}}"#, ["i1", "i2", "i4"])
  }

  @Test("boolean $gt false") func booleanGtFalse() throws {
    try expectLabels(#"{"items":{"$":{"where":{"flag":{"$gt":false}}}}}"#, ["i1", "i4"])
  }

  @Test("string-typed $gt uses JS relational order") func stringTypedGt() throws {
    try expectLabels(#"{"items":{"$":{"where":{"name":{"$gt":"2"}}}}}"#, ["i3", "i4", "i6"])
  }

  @Test("untyped string $lt") func untypedStringLt() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$lt":"a"}}}}}"#, ["i1", "i2", "i4", "i5"])
  }

  @Test("{ $lt, $gt } means $gt") func onlyFirstComparatorByPriority() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$lt":100,"$gt":5}}}}}"#, ["i3"])
  }

  @Test("ranges are written with and") func rangeWithAnd() throws {
    try expectLabels(#"{"items":{"$":{"where":{"and":[{"num":{"$gte":0}},{"num":{"$lt":10}}]}}}}"#, ["i1", "i2", "i5"])
  }

  @Test("missing values never match a comparator") func comparatorMissingNeverMatches() throws {
    try expectLabels(#"{"items":{"$":{"where":{"when":{"$lte":99999999999999}}}}}"#, ["i1", "i2", "i4", "i5"])
  }

  @Test("comparator through a link path") func comparatorThroughLink() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.num":{"$gt":6}}}}}"#, ["o2"])
  }
}
