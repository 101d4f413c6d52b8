import Testing
import InstantCore

/// The reference client's tests (`instaql.test.ts`, listed in instaql.md §11) on the shared fixtures;
/// expected values are the reference client's own answers (exact order).
@Suite("zeneca: links, store writes, paging, ordering, fields (instaql.test.ts 22–53)", .fixturesAvailable) struct ZenecaLinksAndPagingTests {
  @Test("22. forward association") func getAssociation() throws {
    try expectFixtureResult(
      .zeneca, #"{"users":{"$":{"where":{"handle":"alex"},"fields":["handle"]},"bookshelves":{"$":{"fields":["name"]}}}}"#, Self.alexWithShelfNames)
  }

  @Test("23. reverse association") func getReverseAssociation() throws {
    try expectFixtureResult(
      .zeneca, #"{"bookshelves":{"$":{"where":{"name":"Short Stories"},"fields":["name"]},"users":{"$":{"fields":["handle"]}}}}"#,
      Self.shortStoriesWithAlex)
  }

  @Test("24. deep association, default order in each shelf") func getDeepAssociation() throws {
    try expectFixtureResult(.zeneca, Self.alexShelvesAndBooksQuery, Self.alexWithShelvesAndBooks)
  }

  @Test("25. a child where filters only the children") func nestedWheres() throws {
    try expectFixtureResult(.zeneca, Self.alexShortStoriesShelfWithBooksQuery, Self.alexWithShortStoriesBooks)
  }

  @Test("26. child where with or") func nestedWheresOr() throws {
    try expectFixtureResult(.zeneca, Self.alexShortStoriesShelfViaOrQuery, Self.alexWithShortStoriesBooks)
  }

  @Test("27. child where with and") func nestedWheresAnd() throws {
    try expectFixtureResult(.zeneca, Self.alexShortStoriesShelfViaAndQuery, Self.alexWithShortStoriesBooks)
  }

  @Test("28. three-segment path") func deepWhere() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":"Aesop's Fables"}}}}"#, field: "handle", ["alex"])
  }

  @Test("29. unknown namespace") func missingEtype() throws {
    try expectFixtureResult(.zeneca, #"{"moopy":{}}"#, #"{"data":{"moopy":[]}}"#)
  }

  @Test("30. unknown child label") func missingInnerEtype() throws {
    try expectFixtureResult(
      .zeneca, #"{"users":{"$":{"where":{"handle":"joe"},"fields":["handle"]},"moopy":{}}}"#,
      #"{"data":{"users":[{"handle":"joe","id":"ce942051-2d74-404a-9c7d-4aa3f2d54ae4","moopy":[]}]}}"#)
  }

  @Test("31. unknown attr in a where path") func missingFilterAttr() throws {
    try expectFixtureResult(.zeneca, #"{"users":{"$":{"where":{"bookshelves.moopy":"joe"}}}}"#, #"{"data":{"users":[]}}"#)
  }

  @Test("32. forward and reverse children on one form") func multipleConnections() throws {
    try expectFixtureResult(.zeneca, Self.shortStoriesWithBooksAndUsersQuery, Self.shortStoriesWithBooksAndAlex)
  }

  @Test("34. stopa's shelves by users.handle") func stopaShelvesByHandle() throws {
    try expectFixture(.zeneca, #"{"bookshelves":{"$":{"where":{"users.handle":"stopa"},"fields":["name"]}}}"#, field: "name", Self.stopasShelfNames)
  }

  @Test("34. by users.id") func stopaShelvesById() throws {
    try expectFixture(
      .zeneca, #"{"bookshelves":{"$":{"where":{"users.id":"a55a5231-5c4d-4033-b859-7790c45c22d5"},"fields":["name"]}}}"#, field: "name",
      Self.stopasShelfNames)
  }

  @Test("34. by the bare users label") func stopaShelvesByLink() throws {
    try expectFixture(
      .zeneca, #"{"bookshelves":{"$":{"where":{"users":"a55a5231-5c4d-4033-b859-7790c45c22d5"},"fields":["name"]}}}"#, field: "name",
      Self.stopasShelfNames)
  }

  @Test("36. create, then update with upsert:false in a second transact") func createThenUpdate() throws {
    try expectFixtureResult(
      .zeneca, #"{"users":{"$":{"where":{"id":"99999999-0000-4000-8000-000000000001"}}}}"#, transactions: Self.userCreatedThenUpdated,
      Self.createdThenUpdatedUser)
  }

  @Test("37. JSON object values round-trip") func objectValues() throws {
    try expectFixtureResult(
      .zeneca, #"{"users":{"$":{"where":{"handle":"stopa"},"fields":["jsonField","otherJsonField"]}}}"#, transactions: Self.stopaWithJSONObjectFields,
      Self.stopasJSONObjectFields)
  }

  @Test("38. limit 10") func paginationLimit() throws {
    try expectFixture(.zeneca, #"{"books":{"$":{"limit":10,"fields":["title"]}}}"#, field: "title", Self.firstTenBookTitles)
  }

  @Test("40. offset waits for pageInfo") func offsetWithoutPageInfo() throws {
    try expectFixtureResult(.zeneca, #"{"books":{"$":{"offset":10,"limit":5}}}"#, #"{"data":{"books":[]}}"#)
  }

  @Test("40. the server's window, desc") func offsetWindowDesc() throws {
    try expectFixture(
      .zeneca, #"{"books":{"$":{"offset":10,"limit":5,"order":{"serverCreatedAt":"desc"}}}}"#, field: "title", pageInfo: Self.serverWindowOfBooksDesc,
      Self.bookTitlesInServerWindowDesc)
  }

  @Test("40. the server's window, asc") func offsetWindowAsc() throws {
    try expectFixture(
      .zeneca, #"{"books":{"$":{"offset":10,"limit":5,"order":{"serverCreatedAt":"asc"}}}}"#, field: "title", pageInfo: Self.serverWindowOfBooksAsc,
      Self.firstFiveBookTitles)
  }

  @Test("41. last 10 keeps the first 10") func paginationLast() throws {
    try expectFixture(.zeneca, #"{"books":{"$":{"last":10,"fields":["title"]}}}"#, field: "title", Self.firstTenBookTitles)
  }

  @Test("42. first 10") func paginationFirst() throws {
    try expectFixture(.zeneca, #"{"books":{"$":{"first":10,"fields":["title"]}}}"#, field: "title", Self.firstTenBookTitles)
  }

  @Test("43. server data") func leadingStartCursorServerData() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"limit":2,"order":{"createdAt":"desc"}}}}"#, field: "handle", pageInfo: Self.nicoleToAlexByCreatedAtCursors,
      ["nicolegf", "alex"])
  }

  @Test("43. nicole updated past the start cursor still shows") func leadingStartCursorUpdatedNicole() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"limit":2,"order":{"createdAt":"desc"}}}}"#, field: "handle", transactions: Self.nicoleCreatedAtUpdated,
      pageInfo: Self.nicoleToAlexByCreatedAtCursors, ["nicolegf", "alex"])
  }

  @Test("43. an optimistic bob sorts first") func leadingStartCursorOptimisticBob() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"limit":2,"order":{"createdAt":"desc"}}}}"#, field: "handle", transactions: Self.optimisticBob,
      pageInfo: Self.nicoleToAlexByCreatedAtCursors, ["bob", "nicolegf"])
  }

  @Test("44. an optimistic add past the end cursor shows") func leadingEndCursor() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"order":{"createdAt":"asc"}}}}"#, field: "handle", transactions: Self.optimisticNewUser,
      pageInfo: Self.stopaToNicoleByCreatedAtCursors, ["stopa", "joe", "alex", "nicolegf", "newuser"])
  }

  @Test("45. order by untyped title, first 10") func arbitraryOrdering() throws {
    try expectFixture(.zeneca, #"{"books":{"$":{"first":10,"order":{"title":"asc"}}}}"#, field: "title", Self.firstTenBookTitlesAlphabetically)
  }

  @Test("48. no book has a null title") func isNullBefore() throws {
    try expectFixture(.zeneca, #"{"books":{"$":{"where":{"title":{"$isNull":true}}}}}"#, field: "title", [])
  }

  @Test("48. a null and a missing title match, in that order") func isNullAfter() throws {
    try expectFixture(
      .zeneca, #"{"books":{"$":{"where":{"title":{"$isNull":true}}}}}"#, field: "title", transactions: Self.booksWithNullAndMissingTitle,
      [JSON.null, nil])
  }

  @Test("49. every user has shelves") func isNullRelationsBefore() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves":{"$isNull":true}}}}}"#, field: "handle", [])
  }

  @Test("49. a new user without shelves") func isNullRelationsAfter() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"bookshelves":{"$isNull":true}}}}}"#, field: "handle", transactions: Self.userDwwWithoutShelves, ["dww"])
  }

  @Test("49. a deep path with a null leaf, plus users missing a link") func isNullDeepNullLeaf() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"bookshelves.books.title":{"$isNull":true}}}}}"#, field: "handle",
      transactions: Self.userDwwAndMonteCristoTitleNulled, ["stopa", "nicolegf", "dww"])
  }

  @Test("50. every shelf has a user") func isNullReverseBefore() throws {
    try expectFixture(.zeneca, #"{"bookshelves":{"$":{"where":{"users.id":{"$isNull":true}}},"users":{}}}"#, field: "name", [])
  }

  @Test("50. a lonely shelf") func isNullReverseAfter() throws {
    try expectFixture(
      .zeneca, #"{"bookshelves":{"$":{"where":{"users.id":{"$isNull":true}}},"users":{}}}"#, field: "name", transactions: Self.lonelyShelf,
      ["Lonely shelf"])
  }

  @Test("53. fields at the top level") func fieldsTopLevel() throws {
    try expectFixtureResult(.zeneca, #"{"users":{"$":{"fields":["handle"]}}}"#, Self.userHandles)
  }

  @Test("53. fields at both levels") func fieldsNested() throws {
    try expectFixtureResult(
      .zeneca, #"{"users":{"$":{"where":{"handle":"alex"},"fields":["handle"]},"bookshelves":{"$":{"fields":["name"]}}}}"#, Self.alexWithShelfNames)
  }

  @Test("53. fields [] keeps id") func fieldsEmpty() throws {
    try expectFixtureResult(.zeneca, #"{"users":{"$":{"fields":[]}}}"#, Self.userIds)
  }

  @Test("33. users by bookshelves.id") func forwardRefById() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves.id":"64aeeec9-5dea-4937-88f9-08fd96d39a99"}}}}"#, field: "handle", ["stopa"])
  }

  @Test("33. users by the bare bookshelves label") func forwardRefByLink() throws {
    try expectFixture(.zeneca, #"{"users":{"$":{"where":{"bookshelves":"64aeeec9-5dea-4937-88f9-08fd96d39a99"}}}}"#, field: "handle", ["stopa"])
  }

  @Test("35. writing not_users on stopa's uuid leaves users untouched") func objectsCreatedByEtype() throws {
    try expectFixture(
      .zeneca, #"{"users":{"$":{"where":{"handle":"stopa"}}}}"#, field: "email", transactions: Self.notUsersEntityOnStopasId, ["stopa@instantdb.com"])
  }

  @Test("35. the not_users entity has only its own attrs") func objectsCreatedByEtypeOther() throws {
    try expectFixtureResult(.zeneca, #"{"not_users":{}}"#, transactions: Self.notUsersEntityOnStopasId, Self.notUsersEntityWithOwnEmail)
  }
}
