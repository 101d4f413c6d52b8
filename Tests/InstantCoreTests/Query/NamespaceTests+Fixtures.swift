/// Expected results for ``NamespaceTests``, on ``TestData``.
extension NamespaceTests {
  static let ownerHandles = #"""
    {"data":{"owners":[{"handle":"bob","id":"o2"},{"handle":"ann","id":"o1"},{"handle":"cat","id":"o3"}]}}
    """#

  static let ownerHandlesAndUserEmails = #"""
    {"data":{
      "owners":[{"handle":"bob","id":"o2"},{"handle":"ann","id":"o1"},{"handle":"cat","id":"o3"}],
      "$users":[{"email":"u@x.io","id":"u1"}]
    }}
    """#

  static let i3I2I6WithAllAttrs = #"""
    {"data":{"items":[
      {"id":"i3","name":"a0","code":"a0","num":10,"tag":"red","meta":{"x":1,"nested":{"y":[1,2]}}},
      {"id":"i2","name":"2","code":"2","num":null,"when":null,"flag":false,"tag":"blue"},
      {"id":"i6","name":"b%_.*","code":"aaa","tag":null}
    ]}}
    """#
}
