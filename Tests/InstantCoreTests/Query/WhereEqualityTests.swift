import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("where: equality and in") struct WhereEqualityTests {
  @Test("string equality") func stringEquality() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":"red"}}}}"#, ["i1", "i3"])
  }

  @Test("5 matches the number 5") func typeStrictNumber() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":5}}}}"#, ["i1", "i5"])
  }

  @Test("\"5\" does not match the number 5") func typeStrictString() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":"5"}}}}"#, [])
  }

  @Test("boolean equality") func booleanEquality() throws {
    try expectLabels(#"{"items":{"$":{"where":{"flag":false}}}}"#, ["i2"])
  }

  @Test("equality is case-sensitive") func caseSensitiveEquality() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":"Red"}}}}"#, ["i5"])
  }

  @Test("an object without operators never matches") func objectOperandNeverMatches() throws {
    try expectLabels(#"{"items":{"$":{"where":{"meta":{"x":1}}}}}"#, [])
  }

  @Test("in") func inOperator() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"in":["red","blue"]}}}}}"#, ["i1", "i3", "i2"])
  }

  @Test("$in is the same as in") func dollarInOperator() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$in":["red","blue"]}}}}}"#, ["i1", "i3", "i2"])
  }

  @Test("in [] matches nothing") func inEmpty() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":{"$in":[]}}}}}"#, [])
  }

  @Test("in is type-strict per element") func inMixedTypes() throws {
    try expectLabels(#"{"items":{"$":{"where":{"num":{"in":["5",10]}}}}}"#, ["i3"])
  }

  @Test("where on id") func idEquality() throws {
    try expectLabels(#"{"items":{"$":{"where":{"id":"@i4"}}}}"#, ["i4"])
  }

  @Test("$in on id") func idIn() throws {
    try expectLabels(#"{"items":{"$":{"where":{"id":{"$in":["@i4","@i1","@o1"]}}}}}"#, ["i1", "i4"])
  }

  @Test("an unknown attr gives []") func unknownAttrEmpty() throws {
    try expectResult(#"{"items":{"$":{"where":{"nope":1}}}}"#, #"{"data":{"items":[]}}"#)
  }

  @Test("a null where value is an error") func nullValueThrows() throws {
    try expectQueryError(#"{"items":{"$":{"where":{"tag":null}}}}"#)
  }

  @Test("several keys are ANDed") func multipleClausesAnd() throws {
    try expectLabels(#"{"items":{"$":{"where":{"tag":"red","num":10}}}}"#, ["i3"])
  }

  @Test("$entityIdStartsWith is ignored") func entityIdStartsWithIgnored() throws {
    try expectLabels(#"{"items":{"$":{"where":{"$entityIdStartsWith":"zz","tag":"red"}}}}"#, ["i1", "i3"])
  }
}
