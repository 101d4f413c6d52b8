/// Queries, a link index and expected results for ``FieldsAndLinksTests``, on ``TestData``.
extension FieldsAndLinksTests {
  static let i1AndI2WithParentArrays = #"""
    {"data":{"items":[{"code":"10","id":"i1","parent":[]},{"code":"2","id":"i2","parent":[{"code":"10","id":"i1"}]}]}}
    """#

  static let i1WithChildrenAndOwners = #"""
    {"data":{"items":[{"code":"10","id":"i1","children":[{"code":"a0","id":"i3"},{"code":"2","id":"i2"}],"owners":[{"handle":"ann","id":"o1"}]}]}}
    """#

  static let i6WithNextAndPrev = #"""
    {"data":{"items":[{"code":"aaa","id":"i6","next":[{"code":"aaa","id":"i6"}],"prev":[{"code":"Zz","id":"i4"},{"code":"aaa","id":"i6"}]}]}}
    """#

  static let bobsItemsWithParentsAndTheirOwnersQuery = #"""
    {"owners":{
      "$":{"where":{"handle":"bob"},"fields":["handle"]},
      "items":{"$":{"fields":["code"]},"parent":{"$":{"fields":["code"]},"owners":{"$":{"fields":["handle"]}}}}
    }}
    """#

  static let bobsItemsWithParentsAndTheirOwners = #"""
    {"data":{"owners":[{"handle":"bob","id":"o2","items":[
      {"code":"a0","id":"i3","parent":[{"code":"10","id":"i1","owners":[{"handle":"ann","id":"o1"}]}]},
      {"code":"2","id":"i2","parent":[{"code":"10","id":"i1","owners":[{"handle":"ann","id":"o1"}]}]}
    ]}]}}
    """#

  static let ownersWithEmptyNope = #"""
    {"data":{"owners":[
      {"handle":"bob","id":"o2","nope":[]},
      {"handle":"ann","id":"o1","nope":[]},
      {"handle":"cat","id":"o3","nope":[]}
    ]}}
    """#

  static let i1AndI2WithParentAndOwnersQuery = #"""
    {"items":{
      "$":{"where":{"code":{"in":["2","10"]}},"fields":["code"]},
      "parent":{"$":{"fields":["code"]}},
      "owners":{"$":{"fields":["handle"]}}
    }}
    """#

  static let singularParentAndPluralOwners = #"""
    {"items":{
      "parent":{"isForward":true,"isSingular":true,"link":{}},
      "owners":{"isForward":false,"isSingular":false,"link":{}}
    }}
    """#

  static let i1AndI2WithSingularParentAndOwners = #"""
    {"data":{"items":[
      {"code":"10","id":"i1","owners":[{"handle":"ann","id":"o1"}]},
      {"code":"2","id":"i2","parent":{"code":"10","id":"i1"},"owners":[{"handle":"bob","id":"o2"},{"handle":"ann","id":"o1"}]}
    ]}}
    """#

  static let i6WithItselfAsNext = #"""
    {"data":{"items":[{"code":"aaa","id":"i6","next":[{"id":"i6","name":"b%_.*","code":"aaa","tag":null}]}]}}
    """#
}
