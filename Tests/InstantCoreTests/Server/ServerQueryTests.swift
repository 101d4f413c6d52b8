import Testing
@testable import InstantCore

/// The server must send exactly the triples a client needs: evaluating the query on the client
/// over only those triples gives the same answer as over the whole store.
@Suite(.fixturesAvailable)
struct ServerQueryTests {
  static let queries: [String] = [
    #"{"users":{}}"#,
    #"{"users":{"bookshelves":{"books":{}}}}"#,
    #"{"users":{"$":{"where":{"handle":"stopa"}},"bookshelves":{}}}"#,
    #"{"users":{"$":{"where":{"bookshelves.books.title":"The Count of Monte Cristo"}}}}"#,
    #"{"users":{"$":{"where":{"bookshelves.name":{"$not":"2020"}}}}}"#,
    #"{"users":{"$":{"where":{"bookshelves":{"$isNull":false}}}}}"#,
    #"{"bookshelves":{"$":{"where":{"users":{"$isNull":true}}}}}"#,
    #"{"bookshelves":{"$":{"where":{"users.handle":"alex"}},"books":{"$":{"where":{"title":{"$like":"%the%"}}}}}}"#,
    #"{"users":{"$":{"where":{"or":[{"handle":"joe"},{"bookshelves.books.title":{"$ilike":"%gatsby%"}}]}}}}"#,
    #"{"books":{"$":{"where":{"pageCount":{"$gt":300}},"fields":["title"]},"bookshelves":{"$":{"fields":["name"]}}}}"#,
    #"{"books":{"$":{"order":{"title":"asc"},"limit":10}}}"#,
    #"{"bookshelves":{"$":{"where":{"and":[{"books.title":{"$like":"%a%"}},{"users.email":{"$in":["stopa@instantdb.com","joe@instantdb.com"]}}]}},"users":{}}}"#,
    #"{"users":{"bookshelves":{"$":{"where":{"name":{"$in":["2019","2020"]}},"limit":1},"books":{"$":{"fields":["title"]}}}}}"#,
    #"{"books":{"prequel":{},"sequels":{},"next":{},"previous":{}}}"#,
  ]

  @Test(arguments: queries)
  func clientAnswerFromServerTriplesMatchesFullStore(_ text: String) throws {
    let store = try Fixture.zeneca.store()
    let q = try JSON.parse(text)
    let full = try store.query(q)
    let served = try store.serverQuery(q)
    let clientStore = TripleStore(attrs: store.attrs, triples: served.triples)
    let local = try clientStore.query(q, pageInfo: nil)
    #expect(local.data == full.data)
    let anyRows = (full.data.objectValue ?? [:]).values.contains { !($0.arrayValue ?? []).isEmpty }
    #expect(served.triples.isEmpty == !anyRows)
  }

  @Test func paginationPageInfoDrivesTheClientWindow() throws {
    let store = try Fixture.zeneca.store()
    let q = try JSON.parse(#"{"books":{"$":{"order":{"serverCreatedAt":"desc"},"limit":5,"offset":5}}}"#)
    let served = try store.serverQuery(q)
    let info = try #require(served.pageInfo?["books"])
    #expect(info["has-next-page?"] == true)
    #expect(info["has-previous-page?"] == true)
    let clientStore = TripleStore(attrs: store.attrs, triples: served.triples)
    let local = try clientStore.query(q, pageInfo: served.pageInfo)
    #expect(local.data["books"]?.arrayValue?.count == 5)
    // The window is the 6th to 10th newest books.
    let all = try store.query(try JSON.parse(#"{"books":{"$":{"order":{"serverCreatedAt":"desc"}}}}"#))
    let expected = Array(all.data["books"]!.arrayValue![5..<10]).map { $0["id"] }
    #expect(local.data["books"]!.arrayValue!.map { $0["id"] } == expected)
  }

  @Test func afterCursorContinuesWherePageEnded() throws {
    let store = try Fixture.zeneca.store()
    let first = try store.serverQuery(try JSON.parse(#"{"books":{"$":{"limit":3}}}"#))
    let end = try #require(first.pageInfo?["books"]?["end-cursor"])
    let next = try store.serverQuery(.object(["books": ["$": ["limit": 3, "after": end]]]))
    let all = try store.query(try JSON.parse(#"{"books":{}}"#)).data["books"]!.arrayValue!.map { $0["id"]! }
    let ids = Set(next.triples.map(\.entity))
    for id in all[3..<6] { #expect(ids.contains(id.stringValue!)) }
    #expect(!ids.contains(all[2].stringValue!))
  }

  @Test func malformedOptionsAreValidationErrors() throws {
    let store = try Fixture.zeneca.store()
    for bad in [
      #"{"users":{"$":{"limit":-1}}}"#, #"{"users":{"$":{"order":{"a":"asc","b":"desc"}}}}"#,
      #"{"users":{"$":{"bogus":1}}}"#, #"{"users":{"bookshelves":{"$":{"offset":2}}}}"#,
    ] {
      #expect(throws: InstaQLError.self) { try store.serverQuery(try JSON.parse(bad)) }
    }
  }

  @Test func unknownNamespacesAndAttrsGiveEmptyResults() throws {
    let store = try Fixture.zeneca.store()
    let served = try store.serverQuery(try JSON.parse(#"{"nope":{},"users":{"$":{"where":{"nosuch":1}}}}"#))
    #expect(served.triples.isEmpty)
  }
}
