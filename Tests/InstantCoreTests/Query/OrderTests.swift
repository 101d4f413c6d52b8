import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("Ordering") struct OrderTests {
  @Test("untyped strings use UTF-16 code-unit order") func orderUntypedCodeUnit() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"code":"asc"}}}}"#, ["i1", "i2", "i5", "i4", "i3", "i6"])
  }

  @Test("desc on untyped strings") func orderUntypedDesc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"code":"desc"}}}}"#, ["i6", "i3", "i4", "i5", "i2", "i1"])
  }

  @Test("string-typed attrs use ICU collation, null first") func orderStringTypedICU() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"name":"asc"}}}}"#, ["i5", "i1", "i2", "i3", "i6", "i4"])
  }

  @Test("string-typed desc, null last") func orderStringTypedDesc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"name":"desc"}}}}"#, ["i4", "i6", "i3", "i2", "i1", "i5"])
  }

  @Test("number-typed: null and missing together first, tie-broken by uuid") func orderNumberAsc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"num":"asc"}}}}"#, ["i6", "i2", "i4", "i1", "i5", "i3"])
  }

  @Test("number-typed desc reverses the uuid tie-break too") func orderNumberDesc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"num":"desc"}}}}"#, ["i3", "i5", "i1", "i4", "i2", "i6"])
  }

  @Test("date-typed (ISO strings and epoch ms) asc") func orderDateAsc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"when":"asc"}}}}"#, ["i6", "i3", "i2", "i4", "i5", "i1"])
  }

  @Test("date-typed desc") func orderDateDesc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"when":"desc"}}}}"#, ["i1", "i5", "i4", "i2", "i3", "i6"])
  }

  @Test("boolean-typed asc") func orderBooleanAsc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"flag":"asc"}}}}"#, ["i6", "i3", "i5", "i2", "i1", "i4"])
  }

  @Test("order by id is created-at order, not uuid order") func orderById() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"id":"asc"}}}}"#, ["i1", "i3", "i2", "i4", "i5", "i6"])
  }

  @Test("order by id desc") func orderByIdDesc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"id":"desc"}}}}"#, ["i6", "i5", "i4", "i2", "i3", "i1"])
  }

  @Test("an unknown order field means created-at") func orderUnknownField() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"nope":"desc"}}}}"#, ["i6", "i5", "i4", "i2", "i3", "i1"])
  }

  @Test("serverCreatedAt desc reverses ties too") func orderServerCreatedAtDesc() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"serverCreatedAt":"desc"}}}}"#, ["i6", "i5", "i4", "i2", "i3", "i1"])
  }

  @Test("only the first order key counts") func orderFirstKeyOnly() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"code":"desc","num":"asc"}}}}"#, ["i6", "i3", "i4", "i5", "i2", "i1"])
  }

  @Test("a falsy direction means asc") func orderFalsyDirection() throws {
    try expectLabels(#"{"items":{"$":{"where":{},"order":{"code":""}}}}"#, ["i1", "i2", "i5", "i4", "i3", "i6"])
  }

  @Test("children sort per parent") func childOrderPerParent() throws {
    try expectResult(
      #"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"order":{"code":"desc"},"fields":["code"]}}}}"#, Self.ownersWithItemCodesDesc)
  }
}
