/// Query results on ``TestData`` that more than one suite expects.
extension TestData {
  /// Every item's `code`, in the default order: the rows of `{"items":{"$":{"fields":["code"]}}}`, without brackets.
  static let itemCodeRows = #"""
    {"code":"10","id":"i1"},{"code":"a0","id":"i3"},{"code":"2","id":"i2"},{"code":"Zz","id":"i4"},{"code":"Bob","id":"i5"},{"code":"aaa","id":"i6"}
    """#

  static let ownersWithItemCodes = #"""
    {"data":{"owners":[
      {"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"},{"code":"2","id":"i2"}]},
      {"handle":"ann","id":"o1","items":[{"code":"10","id":"i1"},{"code":"2","id":"i2"}]},
      {"handle":"cat","id":"o3","items":[]}
    ]}}
    """#

  static let ownersWithTheirRedItems = #"""
    {"data":{"owners":[
      {"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"}]},
      {"handle":"ann","id":"o1","items":[{"code":"10","id":"i1"}]},
      {"handle":"cat","id":"o3","items":[]}
    ]}}
    """#
}
