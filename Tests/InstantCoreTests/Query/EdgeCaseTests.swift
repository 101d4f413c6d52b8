import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("edge cases: string orders, coercion, odd operands, cursors") struct EdgeCaseTests {
  @Test("untyped order compares UTF-16 code units: U+1F600 sorts before U+FF5A") func codeUnitOrderAboveBMP() throws {
    try expectLabels(
      #"{"items":{"$":{"where":{},"order":{"code":"asc"}}}}"#, ["i1", "i2", "i5", "i4", "i3", "i6", "n2", "n1"],
      transactions: Self.newItemsWithFullwidthZAndEmojiCodes)
  }

  @Test("ICU order with accents and punctuation") func icuOrderAccentsAndPunctuation() throws {
    try expectLabels(
      #"{"items":{"$":{"where":{},"order":{"name":"asc"}}}}"#, ["i5", "n2", "i1", "i2", "n1", "i3", "i6", "i4"],
      transactions: Self.newItemsNamedAAcuteAndMinusOne)
  }

  @Test("% matches a newline") func likePercentMatchesNewline() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"a%b"}}}}}"#, ["n1"], transactions: Self.newItemsWithNewlineAndAccentedCodes)
  }

  @Test("_ matches a newline") func likeUnderscoreMatchesNewline() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$like":"a_b"}}}}}"#, ["n1"], transactions: Self.newItemsWithNewlineAndAccentedCodes)
  }

  @Test("$ilike folds non-ASCII case") func ilikeNonASCII() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$ilike":"é"}}}}}"#, ["n2"], transactions: Self.newItemsWithNewlineAndAccentedCodes)
  }

  @Test("a string operand is coerced against a number attr") func numberGtString() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$gt":"4"}}}}}"#, ["i1", "i3", "i5"])
  }

  @Test("an untyped string compared with a number") func untypedStringGtNumber() throws {
    try expectLabels(#"{"items":{"$":{"where":{"code":{"$gt":9}}}}}"#, ["i1"])
  }

  @Test("-0 equals 0 (SameValueZero)") func negativeZeroEquality() throws {
    try expectLabels(
      #"{"items":{"$":{"where":{"num":{"$in":[-0.0]}}}}}"#, ["n1"],
      transactions: #"[[["add-triple","@n1","items-id","@n1"],["add-triple","@n1","items-num",0]]]"#)
  }

  @Test("true does not equal 1") func booleanVsNumberStrict() throws {
    try expectLabels(#"{"items":{"$":{"where":{"flag":1}}}}"#, [])
  }

  @Test("$not null matches stored values other than null, and missing ones") func notNullOperand() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$not":null}}}}}"#, ["i1", "i3", "i2", "i4", "i5", "i6"])
  }

  @Test("$isNull with a non-boolean operand") func isNullTruthyString() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$isNull":"yes"}}}}}"#, ["i4", "i6"])
  }

  @Test("in [null] matches stored nulls") func inWithNull() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"in":[null]}}}}}"#, ["i6"])
  }

  @Test("$like on id") func likeOnId() throws {
    try expectLabels(#"{"items":{"$":{"where":{"id":{"$like":"1%"}}}}}"#, ["i1"])
  }

  @Test("id listed in fields") func fieldsWithId() throws {
    try expectResult(#"{"items":{"$":{"where":{"code":"10"},"fields":["id","code"]}}}"#, #"{"data":{"items":[{"id":"i1","code":"10"}]}}"#)
  }

  @Test("an invalid date string compares as NaN") func invalidDateNeverMatches() throws {
    try expectLabels(#"{"items":{"$":{"where":{"when":{"$gt":"not a date"}}}}}"#, [])
  }

  @Test("an invalid stored date in ordering") func invalidStoredDateOrder() throws {
    try expectLabels(
      #"{"items":{"$":{"where":{},"order":{"when":"asc"}}}}"#, ["i6", "i3", "i2", "n1", "i4", "i5", "i1"],
      transactions: #"[[["add-triple","@n1","items-id","@n1"],["add-triple","@n1","items-when","garbage"]]]"#)
  }

  @Test("an untyped attr holding numbers and strings") func mixedTypeUntypedOrder() throws {
    try expectLabels(
      #"{"items":{"$":{"where":{},"order":{"meta":"asc"}}}}"#, ["i6", "i1", "i2", "i4", "i5", "n2", "n1", "i3"],
      transactions: Self.newItemsWithNumberAndStringMeta)
  }

  @Test("ordering by a link label") func orderByLinkLabel() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"parent":"asc"}}}}"#, ["i6", "i1", "i4", "i3", "i2", "i5"])
  }

  @Test("a string limit") func limitAsString() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"limit":"2"}}}"#, ["i1", "i3"])
  }

  @Test("a negative limit") func negativeLimit() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"limit":-2}}}"#, ["i1", "i3", "i2", "i4"])
  }

  @Test("a nested limit 0 is no limit") func childLimitZero() throws {
    try expectResult(#"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"limit":0,"fields":["code"]}}}}"#, TestData.ownersWithItemCodes)
  }

  @Test("parent and child wheres through the same link") func whereOnChildAndParentSameLink() throws {
    try expectResult(Self.ownersOfRedItemsWithBlueOrNum10ItemsQuery, Self.bobAndAnnWithBlueOrNum10Items)
  }

  @Test("equality on a date attr is strict on the stored value") func dateEqualityIsStrict() throws {
    try expectLabels(#"{"items":{"$":{"where":{"when":"2024-01-02T00:00:00.000Z"}}}}"#, ["i1"])
  }

  @Test("a cursor on an unknown attr") func cursorOnUnknownAttr() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"offset":1,"fields":["code"]}}}"#,
      pageInfo: #"{"items":{"start-cursor":["@i3","nope","x",1],"end-cursor":["@i4","nope","y",1]}}"#, Self.itemCodesWithUnknownAttrCursors)
  }

  @Test("value cursors in desc order") func valueCursorDesc() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"after":["x"],"order":{"num":"desc"},"fields":["code"]}}}"#,
      pageInfo: #"{"items":{"start-cursor":["@i3","items-num",10,2000],"end-cursor":["@i4","items-num",-3,3000]}}"#,
      Self.itemCodesByNumDescWithNumCursors)
  }

  @Test("a cursor on a date attr compares as epoch ms") func dateCursor() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"offset":1,"order":{"when":"asc"},"fields":["code"]}}}"#, pageInfo: Self.i4ToI5WhenCursors,
      Self.i4AndI5WithWhenCursors)
  }

  @Test("a cursor on a string-typed attr uses collation") func stringTypedCursorUsesCollation() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"offset":1,"order":{"name":"asc"},"fields":["name"]}}}"#, pageInfo: Self.i1ToI3NameCursors,
      Self.i1I2I3NamesWithNameCursors)
  }

  @Test("a blob attr with several values returns the last one") func manyValuedBlobLastWins() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"tag":{"$in":["zzz","zzzz"]}},"fields":["tag"]}}}"#, transactions: Self.manyValuedTagsOnI1AndI4,
      #"{"data":{"items":[{"tag":"zzz","id":"i1"},{"tag":"zzzz","id":"i4"}]}}"#)
  }

  @Test("ordering an attr with several values uses the first") func manyValuedBlobOrderUsesFirst() throws {
    try expectResult(
      #"{"items":{"$":{"where":{},"order":{"tag":"asc"},"fields":["tag"]}}}"#, transactions: Self.manyValuedTagsOnI1AndI4, Self.itemTagsByFirstTag)
  }

  @Test("equality matches any of the values") func manyValuedBlobWhereExistential() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"tag":"red"},"fields":["tag"]}}}"#, transactions: Self.manyValuedTagsOnI1AndI4,
      #"{"data":{"items":[{"tag":"zzz","id":"i1"},{"tag":"red","id":"i3"}]}}"#)
  }

  @Test("afterInclusive / beforeInclusive / aggregate are ignored") func inclusiveOptionsIgnored() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"afterInclusive":true,"beforeInclusive":true,"aggregate":"count","limit":2}}}"#, ["i1", "i3"])
  }
}
