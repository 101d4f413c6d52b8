import Testing
import InstantCore

@Suite("zeneca: nested limit (instaql.test.ts 39)", .fixturesAvailable) struct ZenecaNestedLimitTests {
  @Test("a nested limit applies per parent") func nestedLimitPerShelf() throws {
    let store = try Fixture.zeneca.store()
    let limited = try #require(store.query(JSON.parse(#"{"bookshelves":{"books":{"$":{"limit":4}}}}"#)).data["bookshelves"]?.arrayValue)
    let full = try #require(store.query(JSON.parse(#"{"bookshelves":{"books":{}}}"#)).data["bookshelves"]?.arrayValue)
    #expect(limited.count == 45)
    #expect(full.count == 45)
    // The second shelf has 6 books; the limit keeps its first 4, in the same order.
    let allBooks = try #require(full[1]["books"]?.arrayValue)
    let limitedBooks = try #require(limited[1]["books"]?.arrayValue)
    #expect(allBooks.count == 6)
    #expect(limitedBooks == Array(allBooks.prefix(4)))
    for (shelf, fullShelf) in zip(limited, full) {
      let books = try #require(shelf["books"]?.arrayValue)
      let allOfShelf = try #require(fullShelf["books"]?.arrayValue)
      #expect(books == Array(allOfShelf.prefix(4)))
    }
  }
}
