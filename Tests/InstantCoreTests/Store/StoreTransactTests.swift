import Testing
import InstantCore

/// Tx-steps applied with ``TripleStore/transact(_:)`` on ``TestData``, then observed through a query.
/// Expected values are the reference client's (`store.transact` then `instaql.query`); the indexes are
/// checked for consistency after every batch.
@Suite("TripleStore.transact") struct StoreTransactTests {
  @Test("a cardinality-one add replaces the old value") func cardinalityOneReplaces() throws {
    try expectAfterTransact(
      #"[[["add-triple","@i1","items-code","11"]]]"#, #"{"items":{"$":{"where":{"id":"@i1"},"fields":["code"]}}}"#,
      #"{"data":{"items":[{"code":"11","id":"i1"}]}}"#)
  }

  @Test("updating a value keeps the entity's position") func updateKeepsPosition() throws {
    try expectAfterTransact(
      #"[[["add-triple","@i1","items-id","@i1"],["add-triple","@i1","items-code","zz"]]]"#, #"{"items":{"$":{"fields":["code"]}}}"#,
      Self.itemCodesWithI1ChangedToZz)
  }

  @Test("new entities get times after every existing one, in insertion order") func newEntitiesGoLastInInsertionOrder() throws {
    try expectAfterTransact(Self.n2ThenN1WithCodes, #"{"items":{"$":{"fields":["code"]}}}"#, Self.itemCodesThenN2AndN1)
  }

  @Test("each batch's triples come after the previous batch's") func laterBatchesGoLater() throws {
    try expectAfterTransact(Self.n1N2AndI1InSeparateBatches, #"{"items":{"$":{"fields":["code"]}}}"#, Self.itemCodesThenN1AndN2)
  }

  @Test("add-triple on a many link adds a link") func linkAddsToMany() throws {
    try expectAfterTransact(
      #"[[["add-triple","@o3","owners-items","@i4"],["add-triple","@o3","owners-items","@i5"]]]"#,
      #"{"owners":{"$":{"where":{"handle":"cat"},"fields":["handle"]},"items":{"$":{"fields":["code"]}}}}"#, Self.catWithI4AndI5)
  }

  @Test("retract-triple unlinks, from both sides") func unlinkRetracts() throws {
    try expectAfterTransact(
      #"[[["retract-triple","@o1","owners-items","@i1"]]]"#, Self.annsItemsAndI1sOwnersQuery, Self.annWithOnlyI2AndI1WithoutOwners)
  }

  @Test("a batch of link and unlink steps") func linkAndUnlinkArray() throws {
    try expectAfterTransact(
      Self.catGainsI2AndBobLosesIt, #"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"fields":["code"]}}}}"#,
      Self.ownersAfterCatGainsI2AndBobLosesIt)
  }

  @Test("retracting an absent triple or an unknown attr changes nothing") func retractMissingIsNoOp() throws {
    try expectAfterTransact(
      Self.retractsOfAbsentTriplesAndUnknownAttr,
      #"{"owners":{"$":{"where":{"handle":"ann"},"fields":["handle"]},"items":{"$":{"fields":["code"]}}}}"#, Self.annWithI1AndI2)
  }

  @Test("delete-entity removes the entity's triples and the links to it") func deleteRemovesForwardAndReverse() throws {
    try expectAfterTransact(#"[[["delete-entity","@i2","items"]]]"#, Self.ownersWithItemsAndI1WithChildrenQuery, Self.ownersAndI1WithoutI2)
  }

  @Test("on-delete cascade: deleting a parent deletes the entities that point at it") func cascadeOnDelete() throws {
    try expectAfterTransact(
      #"[[["delete-entity","@i1","items"]]]"#, #"{"items":{"$":{"fields":["code"]}}}"#,
      #"{"data":{"items":[{"code":"Zz","id":"i4"},{"code":"Bob","id":"i5"},{"code":"aaa","id":"i6"}]}}"#)
  }

  @Test("on-delete-reverse cascade: deleting an entity deletes what it points at") func cascadeOnDeleteReverse() throws {
    try expectAfterTransact(
      #"[[["retract-triple","@i6","items-next","@i6"],["delete-entity","@i4","items"]]]"#, #"{"items":{"$":{"fields":["code"]}}}"#,
      #"{"data":{"items":[{"code":"10","id":"i1"},{"code":"a0","id":"i3"},{"code":"2","id":"i2"}]}}"#)
  }

  @Test("delete-entity with an etype deletes only that namespace's data") func deleteScopedToProfiles() throws {
    try expectAfterTransact(
      #"[[["delete-entity","@o2","profiles"]]]"#,
      #"{"owners":{"$":{"where":{"handle":"bob"},"fields":["handle"]},"items":{"$":{"fields":["code"]}}},"profiles":{"$":{"fields":["bio"]}}}"#,
      Self.bobWithItemsAndOnlyP1Profile)
  }

  @Test("deleting o2 from owners keeps its profile") func deleteScopedToOwners() throws {
    try expectAfterTransact(
      #"[[["delete-entity","@o2","owners"]]]"#,
      #"{"owners":{"$":{"fields":["handle"]}},"profiles":{"$":{"fields":["bio"]}},"items":{"$":{"where":{"code":"a0"}},"owners":{}}}"#,
      Self.annCatBothProfilesAndI3WithoutOwners)
  }

  @Test("delete-entity without an etype deletes everything on the uuid") func deleteWithoutEtype() throws {
    try expectAfterTransact(
      #"[[["delete-entity","@o2"]]]"#, #"{"owners":{"$":{"fields":["handle"]}},"profiles":{"$":{"fields":["bio"]}}}"#, Self.annCatAndOnlyP1Profile)
  }

  @Test("delete-entity by lookup") func deleteByLookup() throws {
    try expectAfterTransact(
      #"[[["delete-entity",["owners-handle","cat"],"owners"]]]"#, #"{"owners":{"$":{"fields":["handle"]}}}"#,
      #"{"data":{"owners":[{"handle":"bob","id":"o2"},{"handle":"ann","id":"o1"}]}}"#)
  }

  @Test("delete-entity leaves stale reverse entries that reverse $isNull sees") func deleteLeavesStaleReverseEntries() throws {
    try expectAfterTransact(
      #"[[["delete-entity","@o1","owners"]]]"#, #"{"items":{"$":{"where":{"owners":{"$isNull":true}},"fields":["code"]}}}"#,
      #"{"data":{"items":[{"code":"Zz","id":"i4"},{"code":"Bob","id":"i5"},{"code":"aaa","id":"i6"}]}}"#)
  }

  @Test("replacing a has-one ref leaves a stale reverse entry") func replacedRefLeavesStaleReverseEntry() throws {
    try expectAfterTransact(
      #"[[["add-triple","@i5","items-parent","@i1"]]]"#,
      #"{"items":{"$":{"where":{"children":{"$isNull":true}},"fields":["code"]},"children":{"$":{"fields":["code"]}}}}"#, Self.itemsWithoutChildren)
  }

  @Test("add-attr creates attrs and namespaces on the fly") func addAttrNewNamespace() throws {
    try expectAfterTransact(
      Self.notesNamespaceWithNoteOnI3,
      #"{"notes":{"$":{"fields":["text"]},"item":{"$":{"fields":["code"]}}},"items":{"$":{"where":{"notes.text":"hello"},"fields":["code"]}}}"#,
      Self.helloNoteOnI3)
  }

  @Test("a triple for an attr that does not exist yet is dropped") func addTripleBeforeAttrIsDropped() throws {
    try expectAfterTransact(Self.noteTripleBeforeNotesAttrs, #"{"notes":{}}"#, #"{"data":{"notes":[]}}"#)
  }

  @Test("delete-attr removes the attr and its triples") func deleteAttr() throws {
    try expectAfterTransact(#"[[["delete-attr","items-tag"]]]"#, #"{"items":{"$":{"fields":["code","tag"]}}}"#, Self.itemCodes)
  }

  @Test("after delete-attr, a where on it is an unknown attr") func deleteAttrWhereEmpty() throws {
    try expectAfterTransact(#"[[["delete-attr","items-tag"]]]"#, #"{"items":{"$":{"where":{"tag":"red"}}}}"#, #"{"data":{"items":[]}}"#)
  }

  @Test("update-attr renames a label through forward-identity") func updateAttrRenames() throws {
    try expectAfterTransact(
      #"[[["update-attr",{"id":"items-code","forward-identity":["f-items-code","items","kode"]}]]]"#,
      #"{"items":{"$":{"where":{"kode":{"$in":["10","2"]}},"fields":["kode","code"]}}}"#,
      #"{"data":{"items":[{"kode":"10","id":"i1"},{"kode":"2","id":"i2"}]}}"#)
  }

  @Test("after a rename, the old label is unknown") func updateAttrOldLabelGone() throws {
    try expectAfterTransact(
      #"[[["update-attr",{"id":"items-code","forward-identity":["f-items-code","items","kode"]}]]]"#, #"{"items":{"$":{"where":{"code":"10"}}}}"#,
      #"{"data":{"items":[]}}"#)
  }

  @Test("a lookup ref in the entity position is resolved") func lookupInEntityPosition() throws {
    try expectAfterTransact(
      #"[[["add-triple",["owners-handle","cat"],"owners-items","@i4"]]]"#,
      #"{"owners":{"$":{"where":{"handle":"cat"},"fields":["handle"]},"items":{"$":{"fields":["code"]}}}}"#,
      #"{"data":{"owners":[{"handle":"cat","id":"o3","items":[{"code":"Zz","id":"i4"}]}]}}"#)
  }

  @Test("a lookup ref in the value position is resolved") func lookupInValuePosition() throws {
    try expectAfterTransact(
      #"[[["add-triple","@o3","owners-items",["items-code","Bob"]]]]"#,
      #"{"owners":{"$":{"where":{"handle":"cat"},"fields":["handle"]},"items":{"$":{"fields":["code"]}}}}"#,
      #"{"data":{"owners":[{"handle":"cat","id":"o3","items":[{"code":"Bob","id":"i5"}]}]}}"#)
  }

  @Test("an unresolvable entity lookup drops the step") func unresolvedEntityLookupDropped() throws {
    try expectAfterTransact(
      Self.stepsOnUnknownOwnerZed, #"{"owners":{"$":{"fields":["handle"]},"items":{"$":{"fields":["code"]}}}}"#, TestData.ownersWithItemCodes)
  }

  @Test("an unresolvable value lookup drops the step") func unresolvedValueLookupDropped() throws {
    try expectAfterTransact(
      #"[[["add-triple","@o3","owners-items",["items-code","nope"]]]]"#,
      #"{"owners":{"$":{"where":{"handle":"cat"},"fields":["handle"]},"items":{"$":{"fields":["code"]}}}}"#,
      #"{"data":{"owners":[{"handle":"cat","id":"o3","items":[]}]}}"#)
  }

  @Test("create mode on an existing entity is dropped") func createModeExistingDropped() throws {
    try expectAfterTransact(
      Self.existingI1Created, #"{"items":{"$":{"where":{"id":"@i1"},"fields":["code"]}}}"#, #"{"data":{"items":[{"code":"10","id":"i1"}]}}"#)
  }

  @Test("update mode on a missing entity is dropped") func updateModeMissingDropped() throws {
    try expectAfterTransact(Self.missingN1Updated, #"{"items":{"$":{"fields":["code"]}}}"#, Self.itemCodes)
  }

  @Test("modes are checked against the store before the batch") func modesCheckedBeforeBatch() throws {
    try expectAfterTransact(
      Self.n1CreatedUpdatedAndCreatedInOneBatch, #"{"items":{"$":{"where":{"id":"@n1"}}}}"#, #"{"data":{"items":[{"id":"n1","tag":"t"}]}}"#)
  }

  @Test("update mode on an existing entity applies") func updateModeExisting() throws {
    try expectAfterTransact(
      #"[[["add-triple","@i1","items-code","upd",{"mode":"update"}]]]"#, #"{"items":{"$":{"where":{"id":"@i1"},"fields":["code"]}}}"#,
      #"{"data":{"items":[{"code":"upd","id":"i1"}]}}"#)
  }

  @Test("deep-merge merges objects, null deletes, arrays replace") func deepMergeNested() throws {
    try expectAfterTransact(
      #"[[["deep-merge-triple","@i3","items-meta",{"nested":{"z":2,"y":[3]},"x":null,"w":{"k":1}}]]]"#,
      #"{"items":{"$":{"where":{"id":"@i3"},"fields":["meta"]}}}"#,
      #"{"data":{"items":[{"meta":{"nested":{"y":[3],"z":2},"w":{"k":1}},"id":"i3"}]}}"#)
  }

  @Test("deep-merge twice accumulates") func deepMergeTwice() throws {
    try expectAfterTransact(
      Self.i3MetaMergedTwice, #"{"items":{"$":{"where":{"id":"@i3"},"fields":["meta"]}}}"#,
      #"{"data":{"items":[{"meta":{"x":1,"nested":{"y":[1,2]},"a":{"b":1,"c":2}},"id":"i3"}]}}"#)
  }

  @Test("deep-merge onto a scalar replaces it") func deepMergeScalarReplaces() throws {
    try expectAfterTransact(
      #"[[["deep-merge-triple","@i1","items-code",{"a":1}]]]"#, #"{"items":{"$":{"where":{"id":"@i1"},"fields":["code"]}}}"#,
      #"{"data":{"items":[{"code":{"a":1},"id":"i1"}]}}"#)
  }

  @Test("deep-merge on an absent value is a no-op") func deepMergeAbsentIsNoOp() throws {
    try expectAfterTransact(
      Self.mergesOntoAbsentMeta, #"{"items":{"$":{"where":{"id":{"in":["@n1","@i1"]}},"fields":["meta"]}}}"#,
      #"{"data":{"items":[{"id":"i1"},{"id":"n1"}]}}"#)
  }

  @Test("deep-merge keeps the triple's time") func deepMergeKeepsPosition() throws {
    try expectAfterTransact(#"[[["deep-merge-triple","@i3","items-meta",{"a":1}]]]"#, #"{"items":{"$":{"fields":["code"]}}}"#, Self.itemCodes)
  }

  @Test("deep-merge on a link is an error") func deepMergeOnLinkThrows() throws {
    try expectTransactError(#"[[["deep-merge-triple","@i2","items-parent",{"a":1}]]]"#)
  }

  @Test("an unknown action is an error") func unknownActionThrows() throws {
    try expectTransactError(#"[[["add-triple","@i1","items-code","zzz"],["frobnicate","@i1"]]]"#)
  }

  @Test("restore-attr and rule-params are no-ops") func noOpActions() throws {
    try expectAfterTransact(
      #"[[["restore-attr","items-tag"],["rule-params","@i1",{"x":1}]]]"#, #"{"items":{"$":{"where":{"tag":"red"},"fields":["code"]}}}"#,
      #"{"data":{"items":[{"code":"10","id":"i1"},{"code":"a0","id":"i3"}]}}"#)
  }

  @Test("storing null keeps the value present") func addNullValue() throws {
    try expectAfterTransact(
      #"[[["add-triple","@i1","items-tag",null]]]"#, #"{"items":{"$":{"where":{"id":"@i1"},"fields":["tag","meta"]}}}"#,
      #"{"data":{"items":[{"tag":null,"id":"i1"}]}}"#)
  }
}
