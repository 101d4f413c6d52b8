/// Expected results for ``WherePathTests``, on ``TestData``.
extension WherePathTests {
  static let ownersWithNoItems = #"""
    {"data":{"owners":[
      {"handle":"bob","id":"o2","items":[]},
      {"handle":"ann","id":"o1","items":[]},
      {"handle":"cat","id":"o3","items":[]}
    ]}}
    """#
}
