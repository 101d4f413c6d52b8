import Testing
import InstantCore

/// Expected values come from the reference JavaScript client (the oracle) on ``TestData``.
@Suite("fields and child links") struct FieldsAndLinksTests {
  @Test("fields keeps listed blob attrs plus id") func fieldsSelect() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":{"in":["10","2"]}},"fields":["code","num"]}}}"#,
      #"{"data":{"items":[{"code":"10","num":5,"id":"i1"},{"code":"2","num":null,"id":"i2"}]}}"#)
  }

  @Test("fields [] gives {id}") func fieldsEmpty() throws {
    try expectResult(#"{"items":{"$":{"where":{"code":"10"},"fields":[]}}}"#, #"{"data":{"items":[{"id":"i1"}]}}"#)
  }

  @Test("link names and unknown names in fields are ignored") func fieldsIgnoresLinksAndUnknown() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":"2"},"fields":["parent","owners","nope","tag"]}}}"#, #"{"data":{"items":[{"tag":"blue","id":"i2"}]}}"#)
  }

  @Test("a null value selected by fields is present") func fieldsNullStaysNull() throws {
    try expectResult(#"{"items":{"$":{"where":{"code":"2"},"fields":["num","when"]}}}"#, #"{"data":{"items":[{"num":null,"when":null,"id":"i2"}]}}"#)
  }

  @Test("a has-one forward child is still an array") func forwardChildIsArray() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":{"in":["2","10"]}},"fields":["code"]},"parent":{"$":{"fields":["code"]}}}}"#, Self.i1AndI2WithParentArrays)
  }

  @Test("reverse children") func reverseChild() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":"10"},"fields":["code"]},"children":{"$":{"fields":["code"]}},"owners":{"$":{"fields":["handle"]}}}}"#,
      Self.i1WithChildrenAndOwners)
  }

  @Test("a self-link child") func selfLinkChild() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":"aaa"},"fields":["code"]},"next":{"$":{"fields":["code"]}},"prev":{"$":{"fields":["code"]}}}}"#,
      Self.i6WithNextAndPrev)
  }

  @Test("deep child forms") func deepChildren() throws {
    try expectResult(Self.bobsItemsWithParentsAndTheirOwnersQuery, Self.bobsItemsWithParentsAndTheirOwners)
  }

  @Test("an unknown child label gives []") func unknownChildLabel() throws {
    try expectResult(#"{"owners":{"$":{"fields":["handle"]},"nope":{}}}"#, Self.ownersWithEmptyNope)
  }

  @Test("a child form on a blob attr is an error") func childThroughBlobThrows() throws {
    try expectQueryError(#"{"items":{"tag":{}}}"#)
  }

  @Test("with inference and a linkIndex, a singular link is an object or absent") func cardinalityInferenceObject() throws {
    try expectResult(
      Self.i1AndI2WithParentAndOwnersQuery, cardinalityInference: true, linkIndex: Self.singularParentAndPluralOwners,
      Self.i1AndI2WithSingularParentAndOwners)
  }

  @Test("inference without a linkIndex keeps arrays") func inferenceWithoutLinkIndex() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":"2"},"fields":["code"]},"parent":{"$":{"fields":["code"]}}}}"#, cardinalityInference: true,
      #"{"data":{"items":[{"code":"2","id":"i2","parent":[{"code":"10","id":"i1"}]}]}}"#)
  }

  @Test("a linkIndex without inference keeps arrays") func linkIndexWithoutInference() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":"2"},"fields":["code"]},"parent":{"$":{"fields":["code"]}}}}"#, linkIndex: Self.singularParentAndPluralOwners,
      #"{"data":{"items":[{"code":"2","id":"i2","parent":[{"code":"10","id":"i1"}]}]}}"#)
  }

  @Test("an unknown singular child is absent") func singularUnknownChild() throws {
    try expectResult(
      #"{"items":{"$":{"where":{"code":"2"},"fields":["code"]},"ghost":{}}}"#, cardinalityInference: true,
      linkIndex: #"{"items":{"ghost":{"isForward":true,"isSingular":true,"link":{}}}}"#, #"{"data":{"items":[{"code":"2","id":"i2"}]}}"#)
  }

  @Test("children are deduplicated by id") func childDedup() throws {
    try expectResult(#"{"items":{"$":{"where":{"code":"aaa"},"fields":["code"]},"next":{}}}"#, Self.i6WithItselfAsNext)
  }
}
