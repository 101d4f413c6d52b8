import Foundation
import InstantCore
internal import OrderedCollections
import Testing

@testable import InstantDB

/// ``QueryRegistry`` alone: subscribers, server results, this device's writes and the answers
/// they give, without a socket.
@Suite struct QueryRegistryTests {
  static let q: JSON = ["todos": [:]]
  static let key = q.canonicalString
  static var attrs: AttrStore {
    var attrs = AttrStore()
    attrs.add(Attr(id: "a-id", forward: Ident(id: "f-id", etype: "todos", label: "id"), unique: true, indexed: true))
    attrs.add(Attr(id: "a-title", forward: Ident(id: "f-title", etype: "todos", label: "title")))
    return attrs
  }

  static func context(_ pending: [PendingMutation] = []) -> QueryRegistry.Context {
    QueryRegistry.Context(attrs: attrs, cardinalityInference: false, pending: pending)
  }

  /// A server result holding one todo per title.
  static func result(_ titles: [String]) -> JSON {
    let rows: [JSON] = titles.map { title in
      let e = JSON.string("t-\(title)")
      return [[e, "a-id", e, 1], [e, "a-title", .string(title), 1]]
    }
    return [["data": ["datalog-result": ["join-rows": .array(rows)]]]]
  }

  static func titles(_ result: QueryResult?) -> [String] {
    (result?.data["todos"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }.sorted()
  }

  /// The answers `actions` deliver to the query's subscribers.
  static func delivered(_ actions: [QueryRegistry.Action]) -> [QueryResult] {
    actions.compactMap { if case let .deliver(_, result) = $0 { result } else { nil } }
  }

  static func sent(_ actions: [QueryRegistry.Action]) -> [ClientMessage.Body] {
    actions.compactMap { if case let .send(message) = $0 { message.body } else { nil } }
  }

  static func stream() -> AsyncStream<QueryResult>.Continuation { AsyncStream<QueryResult>.makeStream().continuation }

  @Test("The first subscriber sends add-query (once authenticated) and starts from the cached result; a second gets the last answer")
  func subscribers() {
    let cached = ClientStorage.CachedQuery(q: Self.q, triples: ServerQueryResult.triples(in: Self.result(["old"])), processedTxID: 3)
    var registry = QueryRegistry(cache: [Self.key: cached], cachedQueryLimit: 10)
    let first = registry.subscribe(Self.q, id: UUID(), Self.stream(), isAuthenticated: true, Self.context())
    #expect(Self.sent(first) == [.addQuery(q: Self.q)])
    let answer = Self.delivered(first).first
    #expect(Self.titles(answer) == ["old"])
    #expect(answer?.isFromCache == true)

    let second = registry.subscribe(Self.q, id: UUID(), Self.stream(), isAuthenticated: true, Self.context())
    #expect(Self.sent(second).isEmpty, "one add-query per distinct query")
    #expect(second.count == 1)
    guard case let .give(_, given) = second.first else {
      Issue.record("the second subscriber was not given the last answer")
      return
    }
    #expect(given == answer)

    var offline = QueryRegistry(cache: [:], cachedQueryLimit: 10)
    #expect(Self.sent(offline.subscribe(Self.q, id: UUID(), Self.stream(), isAuthenticated: false, Self.context())).isEmpty)
    #expect(offline.resubscriptions.map(\.body) == [.addQuery(q: Self.q)], "sent after init-ok instead")
  }

  @Test("After init-ok the live queries are sent again in the order they were made, not by their random event ids")
  func resubscriptionOrder() {
    var registry = QueryRegistry(cache: [:], cachedQueryLimit: 10)
    let queries: [JSON] = (0..<40).map { ["todos": ["$": ["where": ["title": .string("t\($0)")]]]] }
    var ids: [UUID] = []
    for q in queries {
      let id = UUID()
      ids.append(id)
      _ = registry.subscribe(q, id: id, Self.stream(), isAuthenticated: false, Self.context())
    }
    // One left and came back: it is now the newest.
    _ = registry.unsubscribe(queries[3], id: ids[3], isAuthenticated: false)
    _ = registry.subscribe(queries[3], id: UUID(), Self.stream(), isAuthenticated: false, Self.context())
    let expected = queries.enumerated().filter { $0.offset != 3 }.map(\.element) + [queries[3]]
    #expect(registry.resubscriptions.map(\.body) == expected.map { .addQuery(q: $0) })
  }

  @Test("Results move forward on one socket; an older one is a replay, skipped; a new socket starts again")
  func results() {
    var registry = QueryRegistry(cache: [:], cachedQueryLimit: 10)
    _ = registry.subscribe(Self.q, id: UUID(), Self.stream(), isAuthenticated: true, Self.context())
    let fresh = registry.receive(Self.q, result: Self.result(["a"]), processedTxID: 5, socket: 1, Self.context())
    #expect(Self.titles(Self.delivered(fresh).first) == ["a"])
    #expect(Self.delivered(fresh).first?.isFromCache == false)
    #expect(fresh.contains { if case .save = $0 { true } else { false } })
    #expect(registry.reflectedTxID == 5)

    let replay = registry.receive(Self.q, result: Self.result(["stale"]), processedTxID: 4, socket: 1, Self.context())
    #expect(Self.delivered(replay).isEmpty)
    #expect(Self.titles(registry[Self.key]?.lastDelivered) == ["a"])
    let same = registry.receive(Self.q, result: Self.result(["a"]), processedTxID: 6, socket: 1, Self.context())
    #expect(Self.delivered(same).isEmpty, "the same answer again is not news")
    let reconnected = registry.receive(Self.q, result: Self.result(["b"]), processedTxID: 2, socket: 2, Self.context())
    #expect(Self.titles(Self.delivered(reconnected).first) == ["b"])
  }

  @Test("A queued write shows at once with hasPendingWrites; withdrawn, it is gone; reflected, it stops counting")
  func writes() throws {
    var registry = Self.subscribed(to: ["a"])
    let m = PendingMutation(
      id: "w", order: 1, created: 0, steps: [["add-triple", "t-new", "a-id", "t-new"], ["add-triple", "t-new", "a-title", "new"]])
    let shown = Self.delivered(registry.apply(m)).first
    #expect(Self.titles(shown) == ["a", "new"])
    #expect(shown?.hasPendingWrites == true)
    #expect(shown.map { $0.sequence > 0 } == true)

    // Refused: rebuilt from the server's store and the writes still pending (none).
    let withdrawn = Self.delivered(registry.withdraw(["w"], Self.context())).first
    #expect(Self.titles(withdrawn) == ["a"])
    #expect(withdrawn?.hasPendingWrites == false)
    #expect(withdrawn.map { $0.sequence > shown!.sequence } == true, "answers are numbered in order")

    // A write another query does not show leaves this query alone.
    #expect(Self.delivered(registry.withdraw(["other"], Self.context())).isEmpty)

    _ = registry.apply(m)
    registry.forgetWrites(["w"])
    #expect(registry[Self.key]?.overlaid == [])
  }

  @Test("The last subscriber sends remove-query; the result is kept for the next one; a refusal is an answer with the error")
  func lastSubscriberAndRefusal() {
    var registry = QueryRegistry(cache: [:], cachedQueryLimit: 10)
    let id = UUID()
    _ = registry.subscribe(Self.q, id: id, Self.stream(), isAuthenticated: true, Self.context())
    _ = registry.receive(Self.q, result: Self.result(["a"]), processedTxID: 5, socket: 1, Self.context())
    #expect(Self.sent(registry.unsubscribe(Self.q, id: id, isAuthenticated: true)) == [.removeQuery(q: Self.q)])
    #expect(registry[Self.key] == nil)
    let again = registry.subscribe(Self.q, id: UUID(), Self.stream(), isAuthenticated: true, Self.context())
    #expect(Self.titles(Self.delivered(again).first) == ["a"])
    #expect(Self.delivered(again).first?.isFromCache == true)

    let refusal = InstantClientError(ServerError(.validationFailed, message: "bad query"), kind: .queryRejected)
    #expect(Self.delivered(registry.refused(Self.q, refusal)).first?.error == refusal)
    registry.forgetResults()
    #expect(registry[Self.key]?.hasResult == false)
    #expect(registry.removeAll().count == 1)
  }

  /// Changes that take the todos titled `removing` out of a result and put those titled `adding`
  /// in, which then holds `count` triples.
  static func changes(removing: [String] = [], adding: [String] = [], count: Int) -> ResultChanges {
    func rows(_ titles: [String]) -> [Triple] {
      titles.flatMap { title in [Triple("t-\(title)", "a-id", .string("t-\(title)"), 1), Triple("t-\(title)", "a-title", .string(title), 1)] }
    }
    return ResultChanges(removed: rows(removing), added: rows(adding), pageInfo: nil, count: count)
  }

  /// A registry with one subscriber of `q`, which got a whole result holding `titles` (tx 5,
  /// socket 1).
  static func subscribed(to titles: [String]) -> QueryRegistry {
    var registry = QueryRegistry(cache: [:], cachedQueryLimit: 10)
    _ = registry.subscribe(q, id: UUID(), stream(), isAuthenticated: true, context())
    _ = registry.receive(q, result: result(titles), processedTxID: 5, socket: 1, context())
    return registry
  }

  static func logged(_ actions: [QueryRegistry.Action]) -> [String] {
    actions.compactMap { if case let .log(what) = $0 { what } else { nil } }
  }

  @Test("Changes apply to the result this socket sent whole: the answer is the changed result's, and it is saved")
  func changesApply() {
    var registry = QueryRegistry(cache: [:], cachedQueryLimit: 10)
    _ = registry.subscribe(Self.q, id: UUID(), Self.stream(), isAuthenticated: true, Self.context())
    _ = registry.receive(Self.q, result: Self.result(["a", "b"]), processedTxID: 5, socket: 1, Self.context())
    let changed = registry.receive(
      Self.q, changes: Self.changes(removing: ["b"], adding: ["c", "d"], count: 6), processedTxID: 6, socket: 1, Self.context())
    #expect(Self.titles(Self.delivered(changed).first) == ["a", "c", "d"])
    #expect(Self.sent(changed).isEmpty)
    #expect(registry.reflectedTxID == 6)
    guard changed.contains(where: { if case .save(Self.key) = $0 { true } else { false } }), let cached = registry.cached(Self.key) else {
      Issue.record("the changed result was not saved")
      return
    }
    #expect(Set(cached.triples) == Set(ServerQueryResult.triples(in: Self.result(["a", "c", "d"]))))
    // A pending write shows on top of the changed result, as on a whole one.
    let m = PendingMutation(
      id: "w1", order: 1, created: 0, steps: [["add-triple", "t-e", "a-id", "t-e"], ["add-triple", "t-e", "a-title", "e"]])
    _ = registry.apply(m)
    let withWrite = registry.receive(
      Self.q, changes: Self.changes(removing: ["a"], count: 4), processedTxID: 7, socket: 1, Self.context([m]))
    #expect(Self.titles(Self.delivered(withWrite).first) == ["c", "d", "e"])
    #expect(Self.delivered(withWrite).first?.hasPendingWrites == true)
  }

  @Test("Changes to a result that did not come whole on this socket are skipped: another socket's, or a cached one")
  func changesNeedTheirResult() {
    var registry = Self.subscribed(to: ["a"])
    let stale = registry.receive(Self.q, changes: Self.changes(adding: ["b"], count: 4), processedTxID: 6, socket: 2, Self.context())
    #expect(Self.delivered(stale).isEmpty)
    #expect(Self.logged(stale).count == 1)

    let cached = ClientStorage.CachedQuery(q: Self.q, triples: ServerQueryResult.triples(in: Self.result(["old"])), processedTxID: 3)
    var restarted = QueryRegistry(cache: [Self.key: cached], cachedQueryLimit: 10)
    _ = restarted.subscribe(Self.q, id: UUID(), Self.stream(), isAuthenticated: true, Self.context())
    let early = restarted.receive(Self.q, changes: Self.changes(adding: ["b"], count: 4), processedTxID: 6, socket: 1, Self.context())
    #expect(Self.delivered(early).isEmpty)
  }

  @Test("A result that loses step with the server is asked for again, and changes wait for it whole")
  func lostStep() {
    var registry = Self.subscribed(to: ["a"])
    // The server counts 6 triples; applied here, the result holds 4 (a change went missing).
    let lost = registry.receive(Self.q, changes: Self.changes(adding: ["b"], count: 6), processedTxID: 6, socket: 1, Self.context())
    #expect(Self.sent(lost) == [.removeQuery(q: Self.q), .addQuery(q: Self.q)])
    // So is a removal of a triple the result does not hold.
    var other = Self.subscribed(to: ["a"])
    let absent = other.receive(
      Self.q, changes: Self.changes(removing: ["z"], adding: ["b", "c"], count: 6), processedTxID: 6, socket: 1, Self.context())
    #expect(Self.sent(absent) == [.removeQuery(q: Self.q), .addQuery(q: Self.q)])

    let skipped = registry.receive(Self.q, changes: Self.changes(adding: ["c"], count: 8), processedTxID: 7, socket: 1, Self.context())
    #expect(Self.delivered(skipped).isEmpty)
    let whole = registry.receive(Self.q, result: Self.result(["a", "b", "c"]), processedTxID: 7, socket: 1, Self.context())
    #expect(Self.titles(Self.delivered(whole).first) == ["a", "b", "c"])
    let next = registry.receive(Self.q, changes: Self.changes(removing: ["a"], count: 4), processedTxID: 8, socket: 1, Self.context())
    #expect(Self.titles(Self.delivered(next).first) == ["b", "c"])
  }
}
