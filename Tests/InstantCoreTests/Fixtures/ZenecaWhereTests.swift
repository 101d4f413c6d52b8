import Testing
import InstantCore

/// The reference client's tests (`instaql.test.ts`, listed in instaql.md §11) on the shared fixtures;
/// expected values are the reference client's own answers (exact order).
@Suite("zeneca: where (instaql.test.ts 1–21)", .fixturesAvailable) struct ZenecaWhereTests {
  @Test("1. all users, in created-at order") func simpleQueryWithoutWhere() throws {
    try expectFixture(.zeneca, #"{"users":{}}"#, field: "handle", ["joe", "alex", "stopa", "nicolegf"])
  }

  @Test("2. equality on handle") func simpleWhere() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"handle":"joe"}}}}"#, field: "handle", ["joe"])
  }

  @Test("3. a user has exactly createdAt, email, fullName, handle and id") func simpleWhereKeys() throws {
    try expectFixtureResult(.zeneca, #"{"users":{"$":{"where":{"handle":"joe"}}}}"#, Self.joeWithAllAttrs)
  }

  @Test("4. deep title equality ANDed with handle") func multipleClauses() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"The Count of Monte Cristo","handle":"stopa"}}}}"#, field: "handle", ["stopa"])
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
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":{"$like":"%Monte Cristo"}}}}}"#, field: "handle", ["stopa", "nicolegf"])
  }

  @Test("9. endsWith deep") func whereEndsWithDeep() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":{"$like":"Anti%"}}}}}"#, field: "handle", ["alex", "stopa", "nicolegf"])
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
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%(%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa (The Hacker)"),
      ["Stopa (The Hacker)"])
  }

  @Test("11. ) is literal in a like pattern") func likeSpecial1() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%)%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("The Hacker (Stopa)"),
      ["The Hacker (Stopa)"])
  }

  @Test("11. [ is literal in a like pattern") func likeSpecial2() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%[%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa [Hacker]"),
      ["Stopa [Hacker]"])
  }

  @Test("11. ] is literal in a like pattern") func likeSpecial3() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%]%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("[Hacker] Stopa"),
      ["[Hacker] Stopa"])
  }

  @Test("11. { is literal in a like pattern") func likeSpecial4() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%{%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa {Hacker}"),
      ["Stopa {Hacker}"])
  }

  @Test("11. } is literal in a like pattern") func likeSpecial5() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%}%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("{Hacker} Stopa"),
      ["{Hacker} Stopa"])
  }

  @Test("11. * is literal in a like pattern") func likeSpecial6() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%*%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa * Hacker"),
      ["Stopa * Hacker"])
  }

  @Test("11. + is literal in a like pattern") func likeSpecial7() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%+%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa + Hacker"),
      ["Stopa + Hacker"])
  }

  @Test("11. ? is literal in a like pattern") func likeSpecial8() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%?%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa? Yes!"),
      ["Stopa? Yes!"])
  }

  @Test("11. ^ is literal in a like pattern") func likeSpecial9() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%^%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa ^ Hacker"),
      ["Stopa ^ Hacker"])
  }

  @Test("11. $ is literal in a like pattern") func likeSpecial10() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%$%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa $ Hacker"),
      ["Stopa $ Hacker"])
  }

  @Test("11. | is literal in a like pattern") func likeSpecial11() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%|%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa | Hacker"),
      ["Stopa | Hacker"])
  }

  @Test("11. \\ is literal in a like pattern") func likeSpecial12() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%\\%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Stopa \\ Hacker"),
      ["Stopa \\ Hacker"])
  }

  @Test("11. . is literal in a like pattern") func likeSpecial13() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"fullName":{"$like":"%.%"}}}}}"#, field: "fullName", transactions: Self.stopaRenamed("Mr. Stopa"),
      ["Mr. Stopa"])
  }

  @Test("12. and of two deep titles") func whereAnd() throws {
    try expectFixture(
      .zeneca,
      #"{"users":{"$":{"where":{"and":[{"bookshelves.books.title":"The Count of Monte Cristo"},{"bookshelves.books.title":"Antifragile"}]}}}}"#,
      field: "handle", ["stopa", "nicolegf"])
  }

  @Test("13. multiple OR matches") func orMultiple() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"or":[{"handle":"stopa"},{"handle":"joe"}]}}}}"#, field: "handle", ["joe", "stopa"])
  }

  @Test("14. mix of matching and non-matching") func orMixed() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"or":[{"handle":"nobody"},{"handle":"stopa"},{"handle":"everybody"}]}}}}"#, field: "handle", ["stopa"])
  }

  @Test("15. with and") func orWithAnd() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"The Count of Monte Cristo","or":[{"handle":"joe"},{"handle":"stopa"}]}}}}"#,
      field: "handle", ["stopa"])
  }

  @Test("16. with references") func orWithReferences() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"or":[{"handle":"joe"},{"handle":"stopa","bookshelves.books.title":"The Count of Monte Cristo"}]}}}}"#,
      field: "handle", ["joe", "stopa"])
  }

  @Test("17. references in or and and, no matches") func orReferencesNoMatch() throws {
    try expectFixture(.zeneca, Self.unknownTitleAndJoeOrStopaWithMonteCristoQuery, field: "handle", [])
  }

  @Test("18. references in or and and, with matches") func orReferencesMatch() throws {
    try expectFixture(.zeneca, Self.promisedLandAndJoeOrStopaWithUnknownTitleQuery, field: "handle", ["joe"])
  }

  @Test("19. nested ors") func orNestedOrs() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"or":[{"or":[{"handle":"stopa"}]},{"handle":"joe"}]}}}}"#, field: "handle", ["joe", "stopa"])
  }

  @Test("20. ands in ors") func orAndsInOrs() throws {
    try expectFixture(.zeneca, Self.stopaOrJoeWithStopasEmailOrNobodyQuery, field: "handle", ["stopa"])
  }

  @Test("21. ands in ors in ands") func orAndsInOrsInAnds() throws {
    try expectFixture(.zeneca, Self.stopaOrJoeWithStopasEmailAndStopaQuery, field: "handle", ["stopa"])
  }
}
