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
    try expectResult(#"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"limit":1,"fields":["code"]}}}}"#, #"{"data":{"owners":[{"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"}]},{"handle":"ann","id":"o1","items":[{"code":"10","id":"i1"}]},{"handle":"cat","id":"o3","items":[]}]}}"#)
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
    try expectResult(#"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"offset":1}}}}"#, pageInfo: #"{"owners":{"start-cursor":["@o2","owners-id","@o2",1400],"end-cursor":["@o3","owners-id","@o3",1600]}}"#, #"{"data":{"owners":[{"handle":"bob","id":"o2","items":[]},{"handle":"ann","id":"o1","items":[]},{"handle":"cat","id":"o3","items":[]}]},"pageInfo":{"owners":{"startCursor":["o2","owners-id","o2",1400],"endCursor":["o3","owners-id","o3",1600]}}}"#)
  }

  @Test("id-attr cursors window by (created-at, uuid)") func windowIdCursor() throws {
    try expectResult(#"{"items":{"$":{"where":{},"fields":["code"],"offset":1}}}"#, pageInfo: #"{"items":{"start-cursor":["@i3","items-id","@i3",2000],"end-cursor":["@i4","items-id","@i4",3000],"has-next-page?":true,"has-previous-page?":false}}"#, #"{"data":{"items":[{"code":"a0","id":"i3"},{"code":"2","id":"i2"},{"code":"Zz","id":"i4"}]},"pageInfo":{"items":{"startCursor":["i3","items-id","i3",2000],"endCursor":["i4","items-id","i4",3000],"hasNextPage":true,"hasPreviousPage":false}}}"#)
  }

  @Test("the same window in desc order") func windowIdCursorDesc() throws {
    try expectResult(#"{"items":{"$":{"where":{},"fields":["code"],"offset":1,"order":{"serverCreatedAt":"desc"}}}}"#, pageInfo: #"{"items":{"start-cursor":["@i4","items-id","@i4",3000],"end-cursor":["@i3","items-id","@i3",2000]}}"#, #"{"data":{"items":[{"code":"Zz","id":"i4"},{"code":"2","id":"i2"},{"code":"a0","id":"i3"}]},"pageInfo":{"items":{"startCursor":["i4","items-id","i4",3000],"endCursor":["i3","items-id","i3",2000]}}}"#)
  }

  @Test("value cursors window by (value, uuid) on the cursor's attr") func windowValueCursor() throws {
    try expectResult(#"{"items":{"$":{"where":{},"fields":["code"],"after":["x"],"order":{"code":"asc"}}}}"#, pageInfo: #"{"items":{"start-cursor":["@i2","items-code","2",2000],"end-cursor":["@i6","items-code","aaa",5000]}}"#, #"{"data":{"items":[{"code":"2","id":"i2"},{"code":"Bob","id":"i5"},{"code":"Zz","id":"i4"},{"code":"a0","id":"i3"},{"code":"aaa","id":"i6"}]},"pageInfo":{"items":{"startCursor":["i2","items-code","2",2000],"endCursor":["i6","items-code","aaa",5000]}}}"#)
  }

  @Test("the cursor attr, not the order key, is the sort attr") func valueCursorAttrBeatsOrderKey() throws {
    try expectResult(#"{"items":{"$":{"where":{},"fields":["code"],"offset":1,"order":{"num":"asc"}}}}"#, pageInfo: #"{"items":{"start-cursor":["@i2","items-code","2",2000],"end-cursor":["@i6","items-code","aaa",5000]}}"#, #"{"data":{"items":[{"code":"2","id":"i2"},{"code":"Bob","id":"i5"},{"code":"Zz","id":"i4"},{"code":"a0","id":"i3"},{"code":"aaa","id":"i6"}]},"pageInfo":{"items":{"startCursor":["i2","items-code","2",2000],"endCursor":["i6","items-code","aaa",5000]}}}"#)
  }

  @Test("a leading query ignores cursors but still reports pageInfo") func leadingIgnoresCursors() throws {
    try expectResult(#"{"items":{"$":{"where":{},"fields":["code"],"limit":10}}}"#, pageInfo: #"{"items":{"start-cursor":["@i3","items-id","@i3",2000],"end-cursor":["@i4","items-id","@i4",3000],"has-next-page?":true,"has-previous-page?":false}}"#, #"{"data":{"items":[{"code":"10","id":"i1"},{"code":"a0","id":"i3"},{"code":"2","id":"i2"},{"code":"Zz","id":"i4"},{"code":"Bob","id":"i5"},{"code":"aaa","id":"i6"}]},"pageInfo":{"items":{"startCursor":["i3","items-id","i3",2000],"endCursor":["i4","items-id","i4",3000],"hasNextPage":true,"hasPreviousPage":false}}}"#)
  }

  @Test("a leading query sorts by the cursor's attr") func leadingUsesCursorAttrForSort() throws {
    try expectResult(#"{"items":{"$":{"where":{},"fields":["code"],"order":{"serverCreatedAt":"desc"}}}}"#, pageInfo: #"{"items":{"start-cursor":["@i2","items-code","2",2000],"end-cursor":["@i6","items-code","aaa",5000]}}"#, #"{"data":{"items":[{"code":"aaa","id":"i6"},{"code":"a0","id":"i3"},{"code":"Zz","id":"i4"},{"code":"Bob","id":"i5"},{"code":"2","id":"i2"},{"code":"10","id":"i1"}]},"pageInfo":{"items":{"startCursor":["i2","items-code","2",2000],"endCursor":["i6","items-code","aaa",5000]}}}"#)
  }

  @Test("pageInfo without a start-cursor keeps a non-leading query empty") func pageInfoWithoutStartCursor() throws {
    try expectResult(#"{"items":{"$":{"where":{},"offset":1}}}"#, pageInfo: #"{"items":{"has-next-page?":false}}"#, #"{"data":{"items":[]},"pageInfo":{"items":{"hasNextPage":false}}}"#)
  }
}
