import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("where: dotted paths and link values") struct WherePathTests {
  @Test("dotted path via a forward link") func forwardPath() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.tag":"blue"}}}}"#, ["o2", "o1"])
  }

  @Test("dotted path via a reverse link") func reversePath() throws {
    try expectLabels(#"{"items":{"$":{"where":{"owners.handle":"ann"}}}}"#, ["i1", "i2"])
  }

  @Test("three segments") func deepPath() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.parent.code":"10"}}}}"#, ["o2", "o1"])
  }

  @Test("self-link reverse path") func selfLinkReverse() throws {
    try expectLabels(#"{"items":{"$":{"where":{"children.code":"Bob"}}}}"#, ["i4"])
  }

  @Test("bare forward link label compares the linked id") func bareForwardLink() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items":"@i3"}}}}"#, ["o2"])
  }

  @Test("bare reverse link label") func bareReverseLink() throws {
    try expectLabels(#"{"items":{"$":{"where":{"owners":"@o2"}}}}"#, ["i3", "i2"])
  }

  @Test("link.id is the same as the bare label") func forwardLinkDotId() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.id":"@i3"}}}}"#, ["o2"])
  }

  @Test("reverse link.id") func reverseLinkDotId() throws {
    try expectLabels(#"{"items":{"$":{"where":{"owners.id":"@o2"}}}}"#, ["i3", "i2"])
  }

  @Test("$in on forward link values") func inOnForwardLink() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items":{"$in":["@i1","@i3"]}}}}}"#, ["o2", "o1"])
  }

  @Test("$in on reverse link values matches nothing") func inOnReverseLinkMatchesNothing() throws {
    try expectLabels(#"{"items":{"$":{"where":{"owners":{"$in":["@o1"]}}}}}"#, [])
  }

  @Test("an unknown label in a path gives []") func unknownLabelInPathEmpty() throws {
    try expectResult(#"{"owners":{"$":{"where":{"nope.code":"x"}}}}"#, #"{"data":{"owners":[]}}"#)
  }

  @Test("an unknown leaf gives []") func unknownLeafInPathEmpty() throws {
    try expectResult(#"{"owners":{"$":{"where":{"items.nope":"x"}}}}"#, #"{"data":{"owners":[]}}"#)
  }

  @Test("walking through a blob attr is an error") func pathThroughBlobThrows() throws {
    try expectQueryError(#"{"items":{"$":{"where":{"tag.x":"y"}}}}"#)
  }

  @Test("a child where filters only the children") func nestedWhereFiltersChildren() throws {
    try expectResult(
      #"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"where":{"tag":"red"},"fields":["code"]}}}}"#, TestData.ownersWithTheirRedItems)
  }

  @Test("an unknown attr in a child where empties only that child") func nestedUnknownAttrChildEmpty() throws {
    try expectResult(#"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"where":{"nope":1}}}}}"#, Self.ownersWithNoItems)
  }
}
