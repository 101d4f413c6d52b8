/// Tx-steps, queries and expected results for ``StoreTransactTests``, on ``TestData``.
extension StoreTransactTests {
  /// `add-attr` steps for a `notes` namespace: `id`, `text` and a many-link `item` (reverse `items.notes`).
  static let notesAttrSteps = #"""
    ["add-attr",{"id":"notes-id","forward-identity":["f-notes-id","notes","id"],"value-type":"blob","cardinality":"one","unique?":true,
      "index?":false}],
    ["add-attr",{"id":"notes-text","forward-identity":["f-notes-text","notes","text"],"value-type":"blob","cardinality":"one","unique?":false,
      "index?":false}],
    ["add-attr",{"id":"notes-item","forward-identity":["f-notes-item","notes","item"],"reverse-identity":["r-notes-item","items","notes"],
      "value-type":"ref","cardinality":"many","unique?":false,"index?":false}]
    """#

  static let itemCodesWithI1ChangedToZz = #"""
    {"data":{"items":[
      {"code":"zz","id":"i1"},
      {"code":"a0","id":"i3"},
      {"code":"2","id":"i2"},
      {"code":"Zz","id":"i4"},
      {"code":"Bob","id":"i5"},
      {"code":"aaa","id":"i6"}
    ]}}
    """#

  static let n2ThenN1WithCodes = #"""
    [[
      ["add-triple","@n2","items-id","@n2"],
      ["add-triple","@n2","items-code","n2"],
      ["add-triple","@n1","items-id","@n1"],
      ["add-triple","@n1","items-code","n1"]
    ]]
    """#

  static let itemCodesThenN2AndN1 = #"""
    {"data":{"items":[
      \#(TestData.itemCodeRows),
      {"code":"n2","id":"n2"},
      {"code":"n1","id":"n1"}
    ]}}
    """#

  static let n1N2AndI1InSeparateBatches = #"""
    [
      [["add-triple","@n1","items-id","@n1"]],
      [["add-triple","@n2","items-id","@n2"]],
      [["add-triple","@i1","items-id","@i1"]]
    ]
    """#

  static let itemCodesThenN1AndN2 = #"""
    {"data":{"items":[
      \#(TestData.itemCodeRows),
      {"id":"n1"},
      {"id":"n2"}
    ]}}
    """#

  static let catWithI4AndI5 = #"""
    {"data":{"owners":[{"handle":"cat","id":"o3","items":[{"code":"Zz","id":"i4"},{"code":"Bob","id":"i5"}]}]}}
    """#

  static let annsItemsAndI1sOwnersQuery = #"""
    {
      "owners":{"$":{"where":{"handle":"ann"},"fields":["handle"]},"items":{"$":{"fields":["code"]}}},
      "items":{"$":{"where":{"code":"10"},"fields":["code"]},"owners":{"$":{"fields":["handle"]}}}
    }
    """#

  static let annWithOnlyI2AndI1WithoutOwners = #"""
    {"data":{
      "owners":[{"handle":"ann","id":"o1","items":[{"code":"2","id":"i2"}]}],
      "items":[{"code":"10","id":"i1","owners":[]}]
    }}
    """#

  static let catGainsI2AndBobLosesIt = #"""
    [[
      ["add-triple","@o3","owners-items","@i1"],
      ["add-triple","@o3","owners-items","@i2"],
      ["retract-triple","@o3","owners-items","@i1"],
      ["retract-triple","@o2","owners-items","@i2"]
    ]]
    """#

  static let ownersAfterCatGainsI2AndBobLosesIt = #"""
    {"data":{"owners":[
      {"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"}]},
      {"handle":"ann","id":"o1","items":[{"code":"10","id":"i1"},{"code":"2","id":"i2"}]},
      {"handle":"cat","id":"o3","items":[{"code":"2","id":"i2"}]}
    ]}}
    """#

  static let retractsOfAbsentTriplesAndUnknownAttr = #"""
    [[
      ["retract-triple","@o1","owners-items","@i6"],
      ["retract-triple","@o1","nope","x"],
      ["add-triple","@o1","nope","x"]
    ]]
    """#

  static let annWithI1AndI2 = #"""
    {"data":{"owners":[{"handle":"ann","id":"o1","items":[{"code":"10","id":"i1"},{"code":"2","id":"i2"}]}]}}
    """#

  static let ownersWithItemsAndI1WithChildrenQuery = #"""
    {
      "owners":{"$":{"fields":["handle"]},"items":{"$":{"fields":["code"]}}},
      "items":{"$":{"where":{"code":"10"},"fields":["code"]},"children":{"$":{"fields":["code"]}}}
    }
    """#

  static let ownersAndI1WithoutI2 = #"""
    {"data":{
      "owners":[
        {"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"}]},
        {"handle":"ann","id":"o1","items":[{"code":"10","id":"i1"}]},
        {"handle":"cat","id":"o3","items":[]}
      ],
      "items":[{"code":"10","id":"i1","children":[{"code":"a0","id":"i3"}]}]
    }}
    """#

  static let bobWithItemsAndOnlyP1Profile = #"""
    {"data":{
      "owners":[{"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"},{"code":"2","id":"i2"}]}],
      "profiles":[{"bio":"hi","id":"p1"}]
    }}
    """#

  static let annCatBothProfilesAndI3WithoutOwners = #"""
    {"data":{
      "owners":[{"handle":"ann","id":"o1"},{"handle":"cat","id":"o3"}],
      "profiles":[{"bio":"hi","id":"p1"},{"bio":"shared id","id":"o2"}],
      "items":[{"id":"i3","name":"a0","code":"a0","num":10,"tag":"red","meta":{"x":1,"nested":{"y":[1,2]}},"owners":[]}]
    }}
    """#

  static let annCatAndOnlyP1Profile = #"""
    {"data":{
      "owners":[{"handle":"ann","id":"o1"},{"handle":"cat","id":"o3"}],
      "profiles":[{"bio":"hi","id":"p1"}]
    }}
    """#

  static let itemsWithoutChildren = #"""
    {"data":{"items":[
      {"code":"a0","id":"i3","children":[]},
      {"code":"2","id":"i2","children":[]},
      {"code":"Bob","id":"i5","children":[]},
      {"code":"aaa","id":"i6","children":[]}
    ]}}
    """#

  static let notesNamespaceWithNoteOnI3 = #"""
    [[
      \#(notesAttrSteps),
      ["add-triple","@n1","notes-id","@n1"],
      ["add-triple","@n1","notes-text","hello"],
      ["add-triple","@n1","notes-item","@i3"]
    ]]
    """#

  static let helloNoteOnI3 = #"""
    {"data":{
      "notes":[{"text":"hello","id":"n1","item":[{"code":"a0","id":"i3"}]}],
      "items":[{"code":"a0","id":"i3"}]
    }}
    """#

  static let noteTripleBeforeNotesAttrs = #"""
    [[
      ["add-triple","@n1","notes-id","@n1"],
      \#(notesAttrSteps)
    ]]
    """#

  static let itemCodes = #"{"data":{"items":[\#(TestData.itemCodeRows)]}}"#

  static let stepsOnUnknownOwnerZed = #"""
    [[
      ["add-triple",["owners-handle","zed"],"owners-handle","zed"],
      ["add-triple",["owners-handle","zed"],"owners-items","@i4"]
    ]]
    """#

  static let existingI1Created = #"""
    [[
      ["add-triple","@i1","items-id","@i1",{"mode":"create"}],
      ["add-triple","@i1","items-code","new",{"mode":"create"}]
    ]]
    """#

  static let missingN1Updated = #"""
    [[
      ["add-triple","@n1","items-id","@n1",{"mode":"update"}],
      ["add-triple","@n1","items-code","new",{"mode":"update"}]
    ]]
    """#

  static let n1CreatedUpdatedAndCreatedInOneBatch = #"""
    [[
      ["add-triple","@n1","items-id","@n1",{"mode":"create"}],
      ["add-triple","@n1","items-code","new",{"mode":"update"}],
      ["add-triple","@n1","items-tag","t",{"mode":"create"}]
    ]]
    """#

  static let i3MetaMergedTwice = #"""
    [
      [["deep-merge-triple","@i3","items-meta",{"a":{"b":1}}]],
      [["deep-merge-triple","@i3","items-meta",{"a":{"c":2}}]]
    ]
    """#

  static let mergesOntoAbsentMeta = #"""
    [[
      ["add-triple","@n1","items-id","@n1"],
      ["deep-merge-triple","@n1","items-meta",{"a":1}],
      ["deep-merge-triple","@i1","items-meta",{"a":1}]
    ]]
    """#
}
