import Foundation
import Testing
@testable import InstantCore
internal import OrderedCollections

/// Compiled queries are kept per store (``QueryPlanCache``) and reused only while they hold. Each
/// test runs queries on a store whose cache has seen them before and on a copy with an empty
/// cache, and expects the same text (key order included) or the same error.
@Suite("query plan cache") struct QueryPlanCacheTests {
  static let newItem = "00000000-0000-4000-8000-0000000000aa"
  static let newOwner = "00000000-0000-4000-8000-0000000000bb"

  /// Queries whose plans depend on strings, attrs and labels the transactions below change.
  static let queries = [
    #"{"items":{"$":{"where":{"tag":"green"}}}}"#,
    #"{"items":{"$":{"where":{"tag":{"$in":["green","red"]}}}}}"#,
    #"{"items":{"$":{"where":{"owners.handle":"newbie"}}}}"#,
    #"{"items":{"$":{"where":{"owners":"00000000-0000-4000-8000-0000000000bb"}}}}"#,
    #"{"items":{"$":{"where":{"id":"00000000-0000-4000-8000-0000000000aa"}}}}"#,
    #"{"items":{"$":{"order":{"num":"desc"},"limit":3}}}"#,
    #"{"items":{"$":{"order":{"color":"asc"}}}}"#,
    #"{"items":{"$":{"where":{"or":[{"tag":"green"},{"num":{"$gt":4}}]}},"owners":{}}}"#,
    #"{"owners":{"items":{"$":{"where":{"tag":"green"}}}}}"#,
    #"{"items":{"$":{"where":{"tag":{"$not":"green"}}}}}"#,
    #"{"items":{"$":{"where":{"color":"green"}}}}"#,
    #"{"items":{"$":{"fields":["tag","color"]}}}"#,
    #"{"items":{"$":{"where":{"name":{"$like":"%e%"}},"order":{"name":"asc"}}}}"#,
    #"{"items":{"$":{"where":{"parent.tag":"green"}}}}"#,
    #"{"items":{"$":{"where":{"color":{"$isNull":true}}}}}"#,
    #"{"owners":{"$":{"where":{"handle":"newbie"}},"items":{"parent":{}}}}"#,
    #"{"items":{},"owners":{}}"#,
    #"{"owners":{},"items":{}}"#,
    #"{"items":{"$":{"where":{"num":{"$gt":1},"tag":"red"}}}}"#,
    #"{"items":{"$":{"where":{"tag":"red","num":{"$gt":1}}}}}"#,
    #"{"items":{"children":{},"parent":{}}}"#,
    #"{"items":{"parent":{},"children":{}}}"#,
    #"{"items":{"$":{"where":{"tag":null}}}}"#,
  ]

  /// Writes that add the strings, entities and attrs those queries name, then take them away.
  static let transactions = [
    #"[["add-triple","@i1","items-tag","green"]]"#,
    #"[["add-triple","\#(newItem)","items-id","\#(newItem)"],["add-triple","\#(newItem)","items-tag","green"],["add-triple","\#(newItem)","items-parent","@i1"]]"#,
    #"[["add-triple","\#(newOwner)","owners-id","\#(newOwner)"],["add-triple","\#(newOwner)","owners-handle","newbie"],["add-triple","\#(newOwner)","owners-items","\#(newItem)"]]"#,
    #"[["add-attr",{"id":"items-color","forward-identity":["f-items-color","items","color"],"value-type":"blob","cardinality":"one","unique?":false,"index?":false}]]"#,
    #"[["add-triple","@i2","items-color","green"],["add-triple","@i4","items-color","blue"]]"#,
    #"[["delete-entity","\#(newItem)","items"]]"#,
    #"[["update-attr",{"id":"items-tag","forward-identity":["f-items-tag","items","color"]}]]"#,
    #"[["delete-attr","items-color"]]"#,
    #"[["retract-triple","@i1","items-tag","green"]]"#,
  ]

  static func outcome(_ store: TripleStore, _ query: JSON) -> String {
    do { return try store.query(query).json.serialized() } catch { return "error: \(error.message)" }
  }

  static func uncached(_ store: TripleStore) -> TripleStore {
    var copy = store
    copy.plans = QueryPlanCache()
    return copy
  }

  static func expectSameAsUncached(_ store: TripleStore, _ queries: [JSON], _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let fresh = uncached(store)
    for query in queries {
      expectEqual(outcome(store, query), outcome(fresh, query), "after \(step): \(query)", sourceLocation: sourceLocation)
    }
  }

  @Test("a cached plan follows new strings, entities, attrs and renamed labels") func followsWrites() throws {
    let queries = try Self.queries.map { try TestData.json($0) }
    var store = try TestData.store()
    Self.expectSameAsUncached(store, queries, "nothing")
    Self.expectSameAsUncached(store, queries, "nothing, again")
    for (i, tx) in Self.transactions.enumerated() {
      try store.transact(#require(TestData.json(tx).arrayValue))
      Self.expectSameAsUncached(store, queries, "transaction \(i)")
      Self.expectSameAsUncached(store, queries, "transaction \(i), again")
    }
  }

  @Test("the same query value again takes the last plan (no hashing), which must still hold after each write") func lastPlan() throws {
    for text in Self.queries {
      let query = try TestData.json(text)
      var store = try TestData.store()
      for (i, tx) in Self.transactions.enumerated() {
        _ = Self.outcome(store, query)  // its plan is now the cache's last one
        try store.transact(#require(TestData.json(tx).arrayValue))
        expectEqual(Self.outcome(store, query), Self.outcome(Self.uncached(store), query), "\(text) after transaction \(i)")
      }
    }
  }

  @Test("the plan checks hold: a string it looked up and found, then a different string on its symbol in a copy") func divergedCopies() throws {
    let query = try TestData.json(#"{"items":{"$":{"where":{"tag":"green"}}}}"#)
    let base = try TestData.store()
    var a = base
    var b = base
    try a.transact(#require(TestData.json(#"[["add-triple","@i1","items-tag","green"]]"#).arrayValue))
    try b.transact(#require(TestData.json(#"[["add-triple","@i1","items-tag","teal"]]"#).arrayValue))
    // Both interned their new string as the same symbol; a's plan must not find "teal" in b.
    #expect(a.symbols.lookup("green") == b.symbols.lookup("teal"))
    #expect(try TestData.resultLabels(a.query(query)) == ["i1"])
    #expect(try TestData.resultLabels(b.query(query)) == [])
    #expect(try TestData.resultLabels(a.query(query)) == ["i1"])
    #expect(try TestData.resultLabels(base.query(query)) == [])
  }

  @Test("a changed link index or cardinality inference is seen") func linkIndexChanges() throws {
    let query = try TestData.json(#"{"items":{"parent":{}}}"#)
    var store = try TestData.store(cardinalityInference: true)
    Self.expectSameAsUncached(store, [query], "no link index")
    store.attrs.linkIndex = ["items": ["parent": ["isSingular": true]]]
    Self.expectSameAsUncached(store, [query], "a link index")
    #expect(Self.outcome(store, query) != Self.outcome(Self.uncached(try TestData.store(cardinalityInference: true)), query))
    store.cardinalityInference = false
    Self.expectSameAsUncached(store, [query], "no inference")
  }

  @Test("queries that differ only in key order keep their own order") func keyOrder() throws {
    let store = try TestData.store()
    let a = try TestData.json(#"{"items":{},"owners":{}}"#)
    let b = try TestData.json(#"{"owners":{},"items":{}}"#)
    #expect(QueryKey(query: a) != QueryKey(query: b))
    #expect(QueryKey(query: a) == QueryKey(query: try TestData.json(#"{"items":{},"owners":{}}"#)))
    for _ in 0..<2 {
      #expect(try store.query(a).data.objectValue?.keys.elements == ["items", "owners"])
      #expect(try store.query(b).data.objectValue?.keys.elements == ["owners", "items"])
    }
  }

  @Test("one store queried from many threads at once") func concurrentQueries() throws {
    let queries = try Self.queries.map { try TestData.json($0) }
    var store = try TestData.store()
    for tx in Self.transactions.prefix(5) { try store.transact(#require(TestData.json(tx).arrayValue)) }
    let expected = queries.map { Self.outcome(Self.uncached(store), $0) }
    let shared = store
    let mismatches = LockedCount()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20 {
        for (query, want) in zip(queries, expected) where Self.outcome(shared, query) != want { mismatches.increment() }
      }
    }
    #expect(mismatches.value == 0)
  }
}

private final class LockedCount: @unchecked Sendable {
  // Only read or written with `lock` held.
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
