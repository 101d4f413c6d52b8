import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("Namespaces and membership") struct NamespaceTests {
  @Test("default order is the id triple's created-at, uuid byte order breaking ties") func allItemsInDefaultOrder() throws {
    try expectLabels(#"{"items":{}}"#, ["i1", "i3", "i2", "i4", "i5", "i6"])
  }

  @Test("profiles shows only entities with the profiles id triple, even on an owner's uuid") func membershipComesFromTheIdTriple() throws {
    try expectLabels(#"{"profiles":{}}"#, ["p1", "o2"])
  }

  @Test("an owner uuid reused in profiles keeps owner data out of profiles") func sharedIdNamespacesStaySeparate() throws {
    try expectResult(#"{"profiles":{"$":{"where":{"bio":"shared id"}}}}"#, #"{"data":{"profiles":[{"id":"o2","bio":"shared id"}]}}"#)
  }

  @Test("a $-prefixed namespace is an ordinary namespace") func dollarNamespace() throws {
    try expectResult(#"{"$users":{}}"#, #"{"data":{"$users":[{"id":"u1","email":"u@x.io"}]}}"#)
  }

  @Test("an unknown namespace gives []") func unknownNamespaceIsEmpty() throws {
    try expectResult(#"{"nope":{}}"#, #"{"data":{"nope":[]}}"#)
  }

  @Test("$$ruleParams is skipped") func ruleParamsSkipped() throws {
    try expectResult(#"{"owners":{"$":{"fields":["handle"]}},"$$ruleParams":{"x":1}}"#, Self.ownerHandles)
  }

  @Test("several namespaces in one query") func twoNamespaces() throws {
    try expectResult(#"{"owners":{"$":{"fields":["handle"]}},"$users":{"$":{"fields":["email"]}}}"#, Self.ownerHandlesAndUserEmails)
  }

  @Test("objects carry every stored blob attr, null present and missing absent") func fullObjects() throws {
    try expectResult(#"{"items":{"$":{"where":{"id":{"in":["@i2","@i3","@i6"]}}}}}"#, Self.i3I2I6WithAllAttrs)
  }
}
