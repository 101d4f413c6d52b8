import InstantCore

/// Tx-steps, queries and the reference client's answers for ``ZenecaWhereTests``.
extension ZenecaWhereTests {
  /// One batch that sets the `fullName` of stopa (found by a lookup on `handle`).
  static func stopaRenamed(_ fullName: String) -> String {
    #"""
    [[
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",
        ["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b",\#(JSON.string(fullName).serialized())]
    ]]
    """#
  }

  static let joeWithAllAttrs = #"""
    {"data":{"users":[{"id":"ce942051-2d74-404a-9c7d-4aa3f2d54ae4","fullName":"Joe Averbukh","handle":"joe","email":"joe@instantdb.com",
      "createdAt":"2021-01-07 18:51:23.742637"}]}}
    """#

  static let unknownTitleAndJoeOrStopaWithMonteCristoQuery = #"""
    {"users":{"$":{"where":{"bookshelves.books.title":"Unknown","or":[
      {"handle":"joe"},
      {"handle":"stopa","bookshelves.books.title":"The Count of Monte Cristo"}
    ]}}}}
    """#

  static let promisedLandAndJoeOrStopaWithUnknownTitleQuery = #"""
    {"users":{"$":{"where":{"bookshelves.books.title":"A Promised Land","or":[
      {"handle":"joe"},
      {"handle":"stopa","bookshelves.books.title":"Unknown"}
    ]}}}}
    """#

  static let stopaOrJoeWithStopasEmailOrNobodyQuery = #"""
    {"users":{"$":{"where":{"or":[
      {"or":[{"and":[{"or":[{"handle":"stopa"},{"handle":"joe"}]},{"email":"stopa@instantdb.com"}]}]},
      {"handle":"nobody"}
    ]}}}}
    """#

  static let stopaOrJoeWithStopasEmailAndStopaQuery = #"""
    {"users":{"$":{"where":{"and":[
      {"or":[{"and":[{"or":[{"handle":"stopa"},{"handle":"joe"}]},{"email":"stopa@instantdb.com"}]}]},
      {"handle":"stopa"}
    ]}}}}
    """#
}
