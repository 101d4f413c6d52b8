import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("limit, first, last, cursors and pageInfo") struct LimitTests {
  @Test("limit keeps the first N") func limit() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"limit":2}}}"#, ["i1", "i3"])
  }

  @Test("limit 0 is no limit") func limitZero() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"limit":0}}}"#, ["i1", "i3", "i2", "i4", "i5", "i6"])
  }

  @Test("first") func first() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"first":3}}}"#, ["i1", "i3", "i2"])
  }

  @Test("last keeps the first N") func lastKeepsFirstN() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"last":2}}}"#, ["i1", "i3"])
  }

  @Test("limit wins over first") func limitBeforeFirst() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"limit":1,"first":3}}}"#, ["i1"])
  }

  @Test("limit applies after ordering") func limitAfterOrder() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"limit":2,"order":{"code":"desc"}}}}"#, ["i6", "i3"])
  }

  @Test("a nested limit applies per parent") func nestedLimitPerParent() throws {
    try expectResult(#"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"limit":1,"fields":["code"]}}}}"#, TestData.ownersWithTheirRedItems)
  }

  @Test("offset without pageInfo gives []") func offsetWithoutPageInfo() throws {
    try expectResult(#"{"items":{"$":{"where":{},"offset":1}}}"#, #"{"data":{"items":[]}}"#)
  }

  @Test("before without pageInfo gives []") func beforeWithoutPageInfo() throws {
    try expectResult(#"{"items":{"$":{"where":{},"before":["x","y","z",1]}}}"#, #"{"data":{"items":[]}}"#)
  }

  @Test("after without pageInfo gives []") func afterWithoutPageInfo() throws {
    try expectResult(#"{"items":{"$":{"where":{},"after":["x","y","z",1]}}}"#, #"{"data":{"items":[]}}"#)
  }

  @Test("a nested offset always gives []") func nestedOffsetEmpty() throws {
    try expectResult(
      #"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"offset":1}}}}"#, pageInfo: Self.o2ToO3IdCursors, Self.ownersWithNoItemsAndIdCursors)
  }

  @Test("id-attr cursors window by (created-at, uuid)") func windowIdCursor() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"fields":["code"],"offset":1}}}"#, pageInfo: Self.i3ToI4IdCursorsWithNextPage, Self.i3I2I4WithIdCursors)
  }

  @Test("the same window in desc order") func windowIdCursorDesc() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"fields":["code"],"offset":1,"order":{"serverCreatedAt":"desc"}}}}"#, pageInfo: Self.i4ToI3IdCursors,
      Self.i4I2I3WithIdCursors)
  }

  @Test("value cursors window by (value, uuid) on the cursor's attr") func windowValueCursor() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"fields":["code"],"after":["x"],"order":{"code":"asc"}}}}"#, pageInfo: Self.i2ToI6CodeCursors,
      Self.codesFrom2ToAaaWithCodeCursors)
  }

  @Test("the cursor attr, not the order key, is the sort attr") func valueCursorAttrBeatsOrderKey() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"fields":["code"],"offset":1,"order":{"num":"asc"}}}}"#, pageInfo: Self.i2ToI6CodeCursors,
      Self.codesFrom2ToAaaWithCodeCursors)
  }

  @Test("a leading query ignores cursors but still reports pageInfo") func leadingIgnoresCursors() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"fields":["code"],"limit":10}}}"#, pageInfo: Self.i3ToI4IdCursorsWithNextPage, Self.itemCodesWithIdCursors)
  }

  @Test("a leading query sorts by the cursor's attr") func leadingUsesCursorAttrForSort() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"fields":["code"],"order":{"serverCreatedAt":"desc"}}}}"#, pageInfo: Self.i2ToI6CodeCursors,
      Self.itemCodesDescWithCodeCursors)
  }

  @Test("pageInfo without a start-cursor keeps a non-leading query empty") func pageInfoWithoutStartCursor() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"offset":1}}}"#, pageInfo: #"{"items":{"has-next-page?":false}}"#,
      #"{"data":{"items":[]},"pageInfo":{"items":{"hasNextPage":false}}}"#)
  }
}
