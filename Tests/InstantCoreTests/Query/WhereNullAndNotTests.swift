import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("where: $not, $ne and $isNull") struct WhereNullAndNotTests {
  @Test("$not matches other values, null and missing") func notIncludesNullAndMissing() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$not":"red"}}}}}"#, ["i2", "i4", "i5", "i6"])
  }

  @Test("$ne is $not") func neIsNot() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$ne":"red"}}}}}"#, ["i2", "i4", "i5", "i6"])
  }

  @Test("$not on a number-typed attr") func notOnNumber() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"$not":5}}}}}"#, ["i3", "i2", "i4", "i6"])
  }

  @Test("$not through a many-link: some linked value differs") func notThroughManyLinkIsExistential() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.tag":{"$not":"red"}}}}}"#, ["o2", "o1", "o3"])
  }

  @Test("$not through a link includes entities without the link") func notThroughLinkMissingStep() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.code":{"$not":"2"}}}}}"#, ["o2", "o1", "o3"])
  }

  @Test("$not on a forward link value") func notOnForwardLinkValue() throws {
    try expectLabels(#"{"items":{"$":{"where":{"parent":{"$not":"@i1"}}}}}"#, ["i1", "i4", "i5", "i6"])
  }

  @Test("$not on a reverse link value only matches entities without the link") func notOnReverseLinkValue() throws {
    try expectLabels(#"{"items":{"$":{"where":{"owners":{"$not":"@o1"}}}}}"#, ["i4", "i5", "i6"])
  }

  @Test("$isNull true: null or missing") func isNullTrue() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$isNull":true}}}}}"#, ["i4", "i6"])
  }

  @Test("$isNull false: present and not null") func isNullFalse() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$isNull":false}}}}}"#, ["i1", "i3", "i2", "i5"])
  }

  @Test("$isNull on a forward link: no link") func isNullForwardLink() throws {
    try expectLabels(#"{"items":{"$":{"where":{"parent":{"$isNull":true}}}}}"#, ["i1", "i4", "i6"])
  }

  @Test("$isNull false on a forward link") func isNullForwardLinkFalse() throws {
    try expectLabels(#"{"items":{"$":{"where":{"parent":{"$isNull":false}}}}}"#, ["i3", "i2", "i5"])
  }

  @Test("$isNull on a reverse link: nothing points here") func isNullReverseLink() throws {
    try expectLabels(#"{"items":{"$":{"where":{"owners":{"$isNull":true}}}}}"#, ["i4", "i5", "i6"])
  }

  @Test("$isNull false on a reverse link") func isNullReverseLinkFalse() throws {
    try expectLabels(#"{"items":{"$":{"where":{"children":{"$isNull":false}}}}}"#, ["i1", "i4"])
  }

  @Test("reverse owners.id null") func isNullReverseId() throws {
    try expectLabels(#"{"items":{"$":{"where":{"owners.id":{"$isNull":true}}}}}"#, ["i4", "i5", "i6"])
  }

  @Test("$isNull on a deep path is an OR over prefixes") func isNullDeepPathOrOverPrefixes() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.parent.tag":{"$isNull":true}}}}}"#, ["o1", "o3"])
  }

  @Test("$isNull false on a deep path needs the whole chain") func isNullDeepPathFalse() throws {
    try expectLabels(#"{"owners":{"$":{"where":{"items.parent.tag":{"$isNull":false}}}}}"#, ["o2", "o1"])
  }
}
