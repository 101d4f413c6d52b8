/// Expected results for ``OrderTests``, on ``TestData``.
extension OrderTests {
  static let ownersWithItemCodesDesc = #"""
    {"data":{"owners":[
      {"handle":"bob","id":"o2","items":[{"code":"a0","id":"i3"},{"code":"2","id":"i2"}]},
      {"handle":"ann","id":"o1","items":[{"code":"2","id":"i2"},{"code":"10","id":"i1"}]},
      {"handle":"cat","id":"o3","items":[]}
    ]}}
    """#
}
