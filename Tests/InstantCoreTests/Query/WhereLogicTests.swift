import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("where: and / or") struct WhereLogicTests {
  @Test("or of two") func orTwo() throws {
    try expectLabels(#"{"items":{"$":{"where":{"or":[{"code":"2"},{"code":"Zz"}]}}}}"#, ["i2", "i4"])
  }

  @Test("or [] matches nothing") func orEmpty() throws {
    try expectLabels(#"{"items":{"$":{"where":{"or":[]}}}}"#, [])
  }

  @Test("and [] matches everything") func andEmpty() throws {
    try expectLabels(#"{"items":{"$":{"where":{"and":[]}}}}"#, ["i1", "i3", "i2", "i4", "i5", "i6"])
  }

  @Test("or with a non-array value is an attr named or") func orNonArray() throws {
    try expectResult(#"{"items":{"$":{"where":{"or":{"code":"2"}}}}}"#, #"{"data":{"items":[]}}"#)
  }

  @Test("or inside and inside or") func orNested() throws {
    try expectLabels(#"{"items":{"$":{"where":{"or":[{"and":[{"tag":"red"},{"or":[{"num":10},{"code":"Zz"}]}]},{"code":"aaa"}]}}}}"#, ["i3", "i6"])
  }

  @Test("outer clause ANDed with or") func orWithOuterClause() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":"red","or":[{"num":5},{"num":10}]}}}}"#, ["i1", "i3"])
  }

  @Test("two clauses through one link level must hold for the same linked entity") func sharedVariableSameLinkedEntity() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.code":"10","items.tag":"blue"}}}}"#, [])
  }

  @Test("two clauses satisfied by one linked entity") func sharedVariableSatisfied() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.code":"2","items.tag":"blue"}}}}"#, ["o2", "o1"])
  }

  @Test("and branches have their own variables") func andBranchesIndependent() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"and":[{"items.code":"10"},{"items.tag":"blue"}]}}}}"#, ["o1"])
  }

  @Test("or branches through links") func orBranchesThroughLinks() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"or":[{"items.code":"a0"},{"items.code":"10"}]}}}}"#, ["o2", "o1"])
  }
}
