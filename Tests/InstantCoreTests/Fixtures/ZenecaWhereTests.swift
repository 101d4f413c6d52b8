import Testing
import InstantCore

/// The reference client's tests (`instaql.test.ts`, listed in instaql.md §11) on the shared fixtures;
/// expected values are the reference client's own answers (exact order).
@Suite("zeneca: where (instaql.test.ts 1–21)", .fixturesAvailable) struct ZenecaWhereTests {
  static let transactions1 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa (The Hacker)"]
    ]
  ]
  """#

  static let transactions2 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","The Hacker (Stopa)"]
    ]
  ]
  """#

  static let transactions3 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa [Hacker]"]
    ]
  ]
  """#

  static let transactions4 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","[Hacker] Stopa"]
    ]
  ]
  """#

  static let transactions5 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa {Hacker}"]
    ]
  ]
  """#

  static let transactions6 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","{Hacker} Stopa"]
    ]
  ]
  """#

  static let transactions7 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa * Hacker"]
    ]
  ]
  """#

  static let transactions8 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa + Hacker"]
    ]
  ]
  """#

  static let transactions9 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa? Yes!"]
    ]
  ]
  """#

  static let transactions10 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa ^ Hacker"]
    ]
  ]
  """#

  static let transactions11 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa $ Hacker"]
    ]
  ]
  """#

  static let transactions12 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa | Hacker"]
    ]
  ]
  """#

  static let transactions13 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Stopa \\ Hacker"]
    ]
  ]
  """#

  static let transactions14 = #"""
  [
    [
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","stopa"],"6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Mr. Stopa"]
    ]
  ]
  """#

  @Test("1. all users, in created-at order") func simpleQueryWithoutWhere() throws {
    try expectFixture(.zeneca, #"{"users":{}}"#, field: "handle", ["joe", "alex", "stopa", "nicolegf"])
  }

  @Test("2. equality on handle") func simpleWhere() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"handle":"joe"}}}}"#, field: "handle", ["joe"])
  }

  @Test("3. a user has exactly createdAt, email, fullName, handle and id") func simpleWhereKeys() throws {
    try expectFixtureResult(.zeneca, #"{"users":{"$":{"where":{"handle":"joe"}}}}"#, #"{"data":{"users":[{"id":"ce942051-2d74-404a-9c7d-4aa3f2d54ae4","fullName":"Joe Averbukh","handle":"joe","email":"joe@instantdb.com","createdAt":"2021-01-07 18:51:23.742637"}]}}"#)
  }

  @Test("4. deep title equality ANDed with handle") func multipleClauses() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"The Count of Monte Cristo","handle":"stopa"}}}}"#, field: "handle", ["stopa"])
  }

  @Test("4. an unknown deep title matches nothing") func multipleClausesUnknownTitle() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"Title nobody has","handle":"stopa"}}}}"#, field: "handle", [])
  }

  @Test("5. in") func whereIn() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"handle":{"in":["stopa","joe"]}}}}}"#, field: "handle", ["joe", "stopa"])
  }

  @Test("5. $in") func whereDollarIn() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"handle":{"$in":["stopa","joe"]}}}}}"#, field: "handle", ["joe", "stopa"])
  }

  @Test("6. %like%") func whereLikeContains() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"handle":{"$like":"%o%"}}}}}"#, field: "handle", ["joe", "stopa", "nicolegf"])
  }

  @Test("7. like without wildcards") func whereLikeEquality() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"handle":{"$like":"joe"}}}}}"#, field: "handle", ["joe"])
  }

  @Test("8. startsWith deep") func whereStartsWithDeep() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":{"$like":"%Monte Cristo"}}}}}"#, field: "handle", ["stopa", "nicolegf"])
  }

  @Test("9. endsWith deep") func whereEndsWithDeep() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":{"$like":"Anti%"}}}}}"#, field: "handle", ["alex", "stopa", "nicolegf"])
  }

  @Test("10. fullName $like %O%") func likeCaseSensitivity1() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%O%"}}}}}"#, field: "fullName", [])
  }

  @Test("10. fullName $ilike %O%") func likeCaseSensitivity2() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$ilike":"%O%"}}}}}"#, field: "fullName", ["Joe Averbukh", "Nicole"])
  }

  @Test("10. fullName $like %j%") func likeCaseSensitivity3() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%j%"}}}}}"#, field: "fullName", [])
  }

  @Test("10. fullName $ilike %j%") func likeCaseSensitivity4() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$ilike":"%j%"}}}}}"#, field: "fullName", ["Joe Averbukh"])
  }

  @Test("11. ( is literal in a like pattern") func likeSpecial0() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%(%"}}}}}"#, field: "fullName", transactions: Self.transactions1, ["Stopa (The Hacker)"])
  }

  @Test("11. ) is literal in a like pattern") func likeSpecial1() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%)%"}}}}}"#, field: "fullName", transactions: Self.transactions2, ["The Hacker (Stopa)"])
  }

  @Test("11. [ is literal in a like pattern") func likeSpecial2() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%[%"}}}}}"#, field: "fullName", transactions: Self.transactions3, ["Stopa [Hacker]"])
  }

  @Test("11. ] is literal in a like pattern") func likeSpecial3() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%]%"}}}}}"#, field: "fullName", transactions: Self.transactions4, ["[Hacker] Stopa"])
  }

  @Test("11. { is literal in a like pattern") func likeSpecial4() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%{%"}}}}}"#, field: "fullName", transactions: Self.transactions5, ["Stopa {Hacker}"])
  }

  @Test("11. } is literal in a like pattern") func likeSpecial5() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%}%"}}}}}"#, field: "fullName", transactions: Self.transactions6, ["{Hacker} Stopa"])
  }

  @Test("11. * is literal in a like pattern") func likeSpecial6() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%*%"}}}}}"#, field: "fullName", transactions: Self.transactions7, ["Stopa * Hacker"])
  }

  @Test("11. + is literal in a like pattern") func likeSpecial7() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%+%"}}}}}"#, field: "fullName", transactions: Self.transactions8, ["Stopa + Hacker"])
  }

  @Test("11. ? is literal in a like pattern") func likeSpecial8() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%?%"}}}}}"#, field: "fullName", transactions: Self.transactions9, ["Stopa? Yes!"])
  }

  @Test("11. ^ is literal in a like pattern") func likeSpecial9() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%^%"}}}}}"#, field: "fullName", transactions: Self.transactions10, ["Stopa ^ Hacker"])
  }

  @Test("11. $ is literal in a like pattern") func likeSpecial10() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%$%"}}}}}"#, field: "fullName", transactions: Self.transactions11, ["Stopa $ Hacker"])
  }

  @Test("11. | is literal in a like pattern") func likeSpecial11() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%|%"}}}}}"#, field: "fullName", transactions: Self.transactions12, ["Stopa | Hacker"])
  }

  @Test("11. \\ is literal in a like pattern") func likeSpecial12() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%\\%"}}}}}"#, field: "fullName", transactions: Self.transactions13, ["Stopa \\ Hacker"])
  }

  @Test("11. . is literal in a like pattern") func likeSpecial13() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%.%"}}}}}"#, field: "fullName", transactions: Self.transactions14, ["Mr. Stopa"])
  }

  @Test("12. and of two deep titles") func whereAnd() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"and":[{"bookshelves.books.title":"The Count of Monte Cristo"},{"bookshelves.books.title":"Antifragile"}]}}}}"#, field: "handle", ["stopa", "nicolegf"])
  }

  @Test("13. multiple OR matches") func orMultiple() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"or":[{"handle":"stopa"},{"handle":"joe"}]}}}}"#, field: "handle", ["joe", "stopa"])
  }

  @Test("14. mix of matching and non-matching") func orMixed() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"or":[{"handle":"nobody"},{"handle":"stopa"},{"handle":"everybody"}]}}}}"#, field: "handle", ["stopa"])
  }

  @Test("15. with and") func orWithAnd() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"The Count of Monte Cristo","or":[{"handle":"joe"},{"handle":"stopa"}]}}}}"#, field: "handle", ["stopa"])
  }

  @Test("16. with references") func orWithReferences() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"or":[{"handle":"joe"},{"handle":"stopa","bookshelves.books.title":"The Count of Monte Cristo"}]}}}}"#, field: "handle", ["joe", "stopa"])
  }

  @Test("17. references in or and and, no matches") func orReferencesNoMatch() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"Unknown","or":[{"handle":"joe"},{"handle":"stopa","bookshelves.books.title":"The Count of Monte Cristo"}]}}}}"#, field: "handle", [])
  }

  @Test("18. references in or and and, with matches") func orReferencesMatch() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"A Promised Land","or":[{"handle":"joe"},{"handle":"stopa","bookshelves.books.title":"Unknown"}]}}}}"#, field: "handle", ["joe"])
  }

  @Test("19. nested ors") func orNestedOrs() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"or":[{"or":[{"handle":"stopa"}]},{"handle":"joe"}]}}}}"#, field: "handle", ["joe", "stopa"])
  }

  @Test("20. ands in ors") func orAndsInOrs() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"or":[{"or":[{"and":[{"or":[{"handle":"stopa"},{"handle":"joe"}]},{"email":"stopa@instantdb.com"}]}]},{"handle":"nobody"}]}}}}"#, field: "handle", ["stopa"])
  }

  @Test("21. ands in ors in ands") func orAndsInOrsInAnds() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"and":[{"or":[{"and":[{"or":[{"handle":"stopa"},{"handle":"joe"}]},{"email":"stopa@instantdb.com"}]}]},{"handle":"stopa"}]}}}}"#, field: "handle", ["stopa"])
  }
}
