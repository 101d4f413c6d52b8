import Testing
@testable import InstantCore
internal import OrderedCollections

/// The server must send exactly the triples a client needs: evaluating the query on the client
/// over only those triples gives the same answer as over the whole store.
struct ServerQueryTests {
  static let queries: [String] = [
    #"{"items":{}}"#,
    #"{"owners":{"items":{"owners":{}}}}"#,
    #"{"owners":{"$":{"where":{"handle":"ann"}},"items":{}}}"#,
    #"{"owners":{"$":{"where":{"items.parent.tag":"red"}}}}"#,
    #"{"owners":{"$":{"where":{"items.tag":{"$not":"red"}}}}}"#,
    #"{"owners":{"$":{"where":{"items":{"$isNull":false}}}}}"#,
    #"{"items":{"$":{"where":{"owners":{"$isNull":true}}}}}"#,
    #"{"items":{"$":{"where":{"owners.handle":"bob"}},"children":{"$":{"where":{"code":{"$like":"%a%"}}}}}}"#,
    #"{"owners":{"$":{"where":{"or":[{"handle":"cat"},{"items.name":{"$ilike":"%z%"}}]}}}}"#,
    #"{"items":{"$":{"where":{"num":{"$gt":0}},"fields":["name"]},"owners":{"$":{"fields":["handle"]}}}}"#,
    #"{"items":{"$":{"order":{"num":"asc"},"limit":3}}}"#,
    #"{"owners":{"$":{"where":{"and":[{"items.tag":{"$like":"%e%"}},{"profile.bio":{"$in":["hi","x"]}}]}},"items":{}}}"#,
    #"{"owners":{"items":{"$":{"where":{"tag":{"$in":["red","blue"]}},"limit":1},"parent":{"$":{"fields":["name"]}}}}}"#,
    #"{"items":{"parent":{},"children":{},"next":{},"prev":{}}}"#,
  ]

  @Test(arguments: queries)
  func clientAnswerFromServerTriplesMatchesFullStore(_ text: String) throws {
    let store = try TestData.store()
    let q = try JSON.parse(text)
    let full = try store.query(q)
    let served = try store.serverQuery(q)
    let clientStore = TripleStore(attrs: store.attrs, triples: served.triples)
    let local = try clientStore.query(q, pageInfo: nil)
    #expect(local.data == full.data)
    let anyRows = (full.data.objectValue ?? [:]).values.contains { !($0.arrayValue ?? []).isEmpty }
    #expect(served.triples.isEmpty == !anyRows)
  }

  /// A count limit picks its rows without sorting every answer: the rows sent are exactly the
  /// first of the full order (ties, nulls and missing values included), in both directions. (How a
  /// client then orders tied rows among only those it was sent can differ from the full store's
  /// order, before this change as after it: ties keep their input order.)
  @Test(arguments: ["num", "rank", "serverCreatedAt", "id"], [true, false])
  func countLimitSendsTheFirstRowsOfTheFullOrder(_ field: String, _ ascending: Bool) throws {
    let store = LimitWindowTests.store()
    let direction: JSON = .string(ascending ? "asc" : "desc")
    let all = try store.query(.object(["w": ["$": ["order": .object([field: direction])]]])).data["w"]!.arrayValue!
      .map { $0["id"]!.stringValue! }
    for limit in [1, 2, 5, 20, 149, 150, 151] {
      for key in ["limit", "first"] {
        let q: JSON = .object(["w": ["$": .object(["order": .object([field: direction]), key: .number(Double(limit))])]])
        let served = try store.serverQuery(q)
        let sent = Set(served.triples.map(\.entity))
        #expect(sent == Set(all.prefix(limit)), "\(key) \(limit) by \(field) \(direction)")
        #expect(served.pageInfo?["w"]?["has-next-page?"] == .bool(limit < all.count), "\(key) \(limit)")
      }
    }
  }

  @Test func paginationPageInfoDrivesTheClientWindow() throws {
    let store = try TestData.store()
    let q = try JSON.parse(#"{"items":{"$":{"order":{"serverCreatedAt":"desc"},"limit":2,"offset":2}}}"#)
    let served = try store.serverQuery(q)
    let info = try #require(served.pageInfo?["items"])
    #expect(info["has-next-page?"] == true)
    #expect(info["has-previous-page?"] == true)
    let clientStore = TripleStore(attrs: store.attrs, triples: served.triples)
    let local = try clientStore.query(q, pageInfo: served.pageInfo)
    #expect(local.data["items"]?.arrayValue?.count == 2)
    // The window is the 3rd and 4th newest items.
    let all = try store.query(try JSON.parse(#"{"items":{"$":{"order":{"serverCreatedAt":"desc"}}}}"#))
    let expected = Array(all.data["items"]!.arrayValue![2..<4]).map { $0["id"] }
    #expect(local.data["items"]!.arrayValue!.map { $0["id"] } == expected)
  }

  @Test func afterCursorContinuesWherePageEnded() throws {
    let store = try TestData.store()
    let first = try store.serverQuery(try JSON.parse(#"{"items":{"$":{"limit":2}}}"#))
    let end = try #require(first.pageInfo?["items"]?["end-cursor"])
    let next = try store.serverQuery(.object(["items": ["$": ["limit": 2, "after": end]]]))
    let all = try store.query(try JSON.parse(#"{"items":{}}"#)).data["items"]!.arrayValue!.map { $0["id"]! }
    let ids = Set(next.triples.map(\.entity))
    for id in all[2..<4] { #expect(ids.contains(id.stringValue!)) }
    #expect(!ids.contains(all[1].stringValue!))
  }

  @Test func malformedOptionsAreValidationErrors() throws {
    let store = try TestData.store()
    for bad in [
      #"{"items":{"$":{"limit":-1}}}"#, #"{"items":{"$":{"order":{"a":"asc","b":"desc"}}}}"#,
      #"{"items":{"$":{"bogus":1}}}"#, #"{"owners":{"items":{"$":{"offset":2}}}}"#,
    ] {
      let error = #expect(throws: InstaQLError.self) { try store.serverQuery(try JSON.parse(bad)) }
      guard case .invalidOption? = error?.kind else {
        Issue.record("\(bad): expected an invalid option, got \(String(describing: error))")
        continue
      }
    }
    let error = try #require(throws: InstaQLError.self) {
      try store.serverQuery(try JSON.parse(#"{"owners":{"items":{"$":{"offset":2}}}}"#))
    }
    #expect(error.kind == .invalidOption(path: "owners.items.$.offset"))
    #expect(error.message == "owners.items.$.offset: offset is only supported on top-level namespaces")
  }

  @Test func unknownNamespacesAndAttrsGiveEmptyResults() throws {
    let store = try TestData.store()
    let served = try store.serverQuery(try JSON.parse(#"{"nope":{},"items":{"$":{"where":{"nosuch":1}}}}"#))
    #expect(served.triples.isEmpty)
  }
}
