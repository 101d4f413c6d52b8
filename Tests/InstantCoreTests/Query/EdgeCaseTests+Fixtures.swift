/// Tx-steps, queries, cursors and expected results for ``EdgeCaseTests``, on ``TestData``.
extension EdgeCaseTests {
  static let newItemsWithFullwidthZAndEmojiCodes = #"""
    [[
      ["add-triple","@n1","items-id","@n1"],
      ["add-triple","@n2","items-id","@n2"],
      ["add-triple","@n1","items-code","ｚ"],
      ["add-triple","@n2","items-code","😀"]
    ]]
    """#

  static let newItemsNamedAAcuteAndMinusOne = #"""
    [[
      ["add-triple","@n1","items-id","@n1"],
      ["add-triple","@n2","items-id","@n2"],
      ["add-triple","@n1","items-name","á"],
      ["add-triple","@n2","items-name","-1"]
    ]]
    """#

  static let newItemsWithNewlineAndAccentedCodes = #"""
    [[
      ["add-triple","@n1","items-id","@n1"],
      ["add-triple","@n2","items-id","@n2"],
      ["add-triple","@n1","items-code","a\nb"],
      ["add-triple","@n2","items-code","É"]
    ]]
    """#

  static let newItemsWithNumberAndStringMeta = #"""
    [[
      ["add-triple","@n1","items-id","@n1"],
      ["add-triple","@n2","items-id","@n2"],
      ["add-triple","@n1","items-meta",3],
      ["add-triple","@n2","items-meta","3"]
    ]]
    """#

  static let ownersOfRedItemsWithBlueOrNum10ItemsQuery = #"""
    {"owners":{
      "$":{"where":{"items.tag":"red"},"fields":["handle"]},
      "items":{"$":{"where":{"or":[{"tag":"blue"},{"num":10}]},"fields":["code"]}}
    }}
    """#

  static let bobAndAnnWithBlueOrNum10Items = #"""
    {"data":{"owners":[
      {"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"},{"code":"2","id":"i2"}]},
      {"handle":"ann","id":"o1","items":[{"code":"2","id":"i2"}]}
    ]}}
    """#

  static let itemCodesWithUnknownAttrCursors = #"""
    {
      "data":{"items":[\#(TestData.itemCodeRows)]},
      "pageInfo":{"items":{"startCursor":["i3","nope","x",1],"endCursor":["i4","nope","y",1]}}
    }
    """#

  static let itemCodesByNumDescWithNumCursors = #"""
    {
      "data":{"items":[{"code":"a0","id":"i3"},{"code":"Bob","id":"i5"},{"code":"10","id":"i1"},{"code":"Zz","id":"i4"}]},
      "pageInfo":{"items":{"startCursor":["i3","items-num",10,2000],"endCursor":["i4","items-num",-3,3000]}}
    }
    """#

  static let i4ToI5WhenCursors = #"""
    {"items":{
      "start-cursor":["@i4","items-when","2023-06-01T00:00:00.000Z",3000],
      "end-cursor":["@i5","items-when",1700000000000,4000]
    }}
    """#

  static let i4AndI5WithWhenCursors = #"""
    {
      "data":{"items":[{"code":"Zz","id":"i4"},{"code":"Bob","id":"i5"}]},
      "pageInfo":{"items":{
        "startCursor":["i4","items-when","2023-06-01T00:00:00.000Z",3000],
        "endCursor":["i5","items-when",1700000000000,4000]
      }}
    }
    """#

  static let i1ToI3NameCursors = #"""
    {"items":{"start-cursor":["@i1","items-name","10",1000],"end-cursor":["@i3","items-name","a0",2000]}}
    """#

  static let i1I2I3NamesWithNameCursors = #"""
    {
      "data":{"items":[{"name":"10","id":"i1"},{"name":"2","id":"i2"},{"name":"a0","id":"i3"}]},
      "pageInfo":{"items":{"startCursor":["i1","items-name","10",1000],"endCursor":["i3","items-name","a0",2000]}}
    }
    """#

  static let manyValuedTagsOnI1AndI4 = #"""
    [[
      ["update-attr",{"id":"items-tag","cardinality":"many"}],
      ["add-triple","@i1","items-tag","zzz"],
      ["add-triple","@i4","items-tag","aaa"],
      ["add-triple","@i4","items-tag","zzzz"]
    ]]
    """#

  static let itemTagsByFirstTag = #"""
    {"data":{"items":[
      {"tag":null,"id":"i6"},
      {"tag":"Red","id":"i5"},
      {"tag":"zzzz","id":"i4"},
      {"tag":"blue","id":"i2"},
      {"tag":"red","id":"i3"},
      {"tag":"zzz","id":"i1"}
    ]}}
    """#
}
