/// Cursors and expected results for ``LimitTests``, on ``TestData``.
extension LimitTests {
  static let o2ToO3IdCursors = #"""
    {"owners":{"start-cursor":["@o2","owners-id","@o2",1400],"end-cursor":["@o3","owners-id","@o3",1600]}}
    """#

  static let ownersWithNoItemsAndIdCursors = #"""
    {
      "data":{"owners":[
        {"handle":"bob","id":"o2","items":[]},
        {"handle":"ann","id":"o1","items":[]},
        {"handle":"cat","id":"o3","items":[]}
      ]},
      "pageInfo":{"owners":{"startCursor":["o2","owners-id","o2",1400],"endCursor":["o3","owners-id","o3",1600]}}
    }
    """#

  static let i3ToI4IdCursorsWithNextPage = #"""
    {"items":{"start-cursor":["@i3","items-id","@i3",2000],"end-cursor":["@i4","items-id","@i4",3000],"has-next-page?":true,
      "has-previous-page?":false}}
    """#

  static let i3I2I4WithIdCursors = #"""
    {
      "data":{"items":[{"code":"a0","id":"i3"},{"code":"2","id":"i2"},{"code":"Zz","id":"i4"}]},
      "pageInfo":{"items":{"startCursor":["i3","items-id","i3",2000],"endCursor":["i4","items-id","i4",3000],"hasNextPage":true,
        "hasPreviousPage":false}}
    }
    """#

  static let i4ToI3IdCursors = #"""
    {"items":{"start-cursor":["@i4","items-id","@i4",3000],"end-cursor":["@i3","items-id","@i3",2000]}}
    """#

  static let i4I2I3WithIdCursors = #"""
    {
      "data":{"items":[{"code":"Zz","id":"i4"},{"code":"2","id":"i2"},{"code":"a0","id":"i3"}]},
      "pageInfo":{"items":{"startCursor":["i4","items-id","i4",3000],"endCursor":["i3","items-id","i3",2000]}}
    }
    """#

  static let i2ToI6CodeCursors = #"""
    {"items":{"start-cursor":["@i2","items-code","2",2000],"end-cursor":["@i6","items-code","aaa",5000]}}
    """#

  static let codesFrom2ToAaaWithCodeCursors = #"""
    {
      "data":{"items":[
        {"code":"2","id":"i2"},
        {"code":"Bob","id":"i5"},
        {"code":"Zz","id":"i4"},
        {"code":"a0","id":"i3"},
        {"code":"aaa","id":"i6"}
      ]},
      "pageInfo":{"items":{"startCursor":["i2","items-code","2",2000],"endCursor":["i6","items-code","aaa",5000]}}
    }
    """#

  static let itemCodesWithIdCursors = #"""
    {
      "data":{"items":[\#(TestData.itemCodeRows)]},
      "pageInfo":{"items":{"startCursor":["i3","items-id","i3",2000],"endCursor":["i4","items-id","i4",3000],"hasNextPage":true,
        "hasPreviousPage":false}}
    }
    """#

  static let itemCodesDescWithCodeCursors = #"""
    {
      "data":{"items":[
        {"code":"aaa","id":"i6"},
        {"code":"a0","id":"i3"},
        {"code":"Zz","id":"i4"},
        {"code":"Bob","id":"i5"},
        {"code":"2","id":"i2"},
        {"code":"10","id":"i1"}
      ]},
      "pageInfo":{"items":{"startCursor":["i2","items-code","2",2000],"endCursor":["i6","items-code","aaa",5000]}}
    }
    """#
}
