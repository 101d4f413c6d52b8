import OrderedCollections
import TestSupport
import Testing

@testable import InstantCore

/// ``EntityLocalQuery``: a subscribed query's result kept current from what transactions touched
/// must be, after every transaction, the result a whole evaluation gives.
@Suite struct EntityLocalQueryTests {
  typealias World = ServerTransactionTests

  static let goals = (0..<10).map { "b0000000-0000-4000-8000-00000000000\($0)" }
  static let users = (0..<4).map { "c0000000-0000-4000-8000-00000000000\($0)" }
  static let todos = (0..<6).map { "d0000000-0000-4000-8000-00000000000\($0)" }

  /// Queries whose results are made of per-entity parts.
  static let local: [JSON] = [
    ["goals": [:]],
    ["goals": ["$": ["where": ["done": true]]]],
    ["goals": ["$": ["where": ["or": [["done": true], ["rank": ["$gt": 5]]]]]]],
    ["goals": ["$": ["where": ["and": [["done": false], ["title": ["$in": ["a", "b"]]]]]]]],
    ["goals": ["$": ["where": ["title": ["$isNull": true]]]]],
    ["goals": ["$": ["where": ["rank": ["$not": 3]]]]],
    ["goals": ["$": ["order": ["rank": "desc"], "fields": ["title"]]]],
    ["goals": ["$": ["where": ["id": ["$in": [.string(goals[1]), .string(goals[2])]]]]]],
  ]

  @Test("Queries that read other entities, paginate or have child forms are not entity-local")
  func eligibility() throws {
    let attrs = try World.schemaStore().attrs
    for q in Self.local { #expect(EntityLocalQuery(q, attrs: attrs) != nil, "\(q.serialized())") }
    let whole: [JSON] = [
      ["goals": ["todos": [:]]],
      ["goals": ["$": ["where": ["owner": .string(Self.users[0])]]]],
      ["goals": ["$": ["where": ["todos.id": .string(Self.todos[0])]]]],
      ["goals": ["$": ["limit": 3]]],
      ["goals": ["$": ["first": 3, "order": ["rank": "asc"]]]],
      ["goals": [:], "users": [:]],
      ["$files": [:]],
      ["goals": ["$": ["where": ["unknown": 1]]]],
    ]
    for q in whole { #expect(EntityLocalQuery(q, attrs: attrs) == nil, "\(q.serialized())") }
  }

  /// One random transaction over a small pool (tx-steps as clients send them), so entities are
  /// created, changed, moved in and out of `where`s, linked, and deleted directly and by cascades.
  static func randomSteps(_ rng: inout SeededGenerator) -> [JSON] {
    func add(_ e: String, _ a: String, _ v: JSON) -> JSON { ["add-triple", .string(e), .string(a), v] }
    var steps: [JSON] = []
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
      let goal = goals.randomElement(using: &rng)!
      let user = users.randomElement(using: &rng)!
      switch Int.random(in: 0..<12, using: &rng) {
      case 0..<5:
        steps.append(add(goal, World.gid, .string(goal)))
        if Bool.random(using: &rng) {
          let title: JSON = Int.random(in: 0..<5, using: &rng) == 0 ? .null : .string(["a", "b", "c"].randomElement(using: &rng)!)
          steps.append(add(goal, World.gtitle, title))
        }
        if Bool.random(using: &rng) { steps.append(add(goal, World.gdone, .bool(Bool.random(using: &rng)))) }
        if Bool.random(using: &rng) { steps.append(add(goal, World.rank, .number(Double(Int.random(in: 0..<8, using: &rng))))) }
      case 5:
        steps.append(["delete-entity", .string(goal), "goals"])
      case 6:
        steps.append(["retract-triple", .string(goal), .string(World.gtitle), .string(["a", "b", "c"].randomElement(using: &rng)!)])
      case 7:
        steps.append(add(user, World.uid, .string(user)))
        steps.append(add(goal, World.owner, .string(user)))
      case 8:
        // Deleting a user deletes the goals it owns (owner's on-delete cascade).
        steps.append(["delete-entity", .string(user), "users"])
      case 9:
        steps.append(add(user, World.uid, .string(user)))
        steps.append(add(user, World.email, .string("\(Int.random(in: 0..<100, using: &rng))@x")))
      default:
        let todo = todos.randomElement(using: &rng)!
        steps.append(add(todo, World.tid, .string(todo)))
        steps.append(add(goal, World.link, .string(todo)))
      }
    }
    return steps
  }

  /// Runs `transactions` random transactions per seed, checking each query's kept result after
  /// every few (changes pile up between checks, as commits do between invalidation passes).
  /// `since` chooses which changed triples the query is told about (all of them, unless a test
  /// breaks it). Returns what went wrong.
  static func run(
    seeds: Range<UInt64>, transactions: Int, since: (ServerTransactionChanges) -> [Triple]
  ) throws -> (problems: [String], applied: Int, largest: Int) {
    var problems: [String] = []
    var applied = 0
    var largest = 0
    for seed in seeds {
      var rng = SeededGenerator(seed: seed)
      var store = try World.schemaStore()
      let queries = Self.local.map { EntityLocalQuery($0, attrs: store.attrs)! }
      var kept = try queries.map { Set(try store.serverQuery($0.q).triples) }
      var changed: [Triple] = []
      for step in 0..<transactions {
        let steps = randomSteps(&rng)
        guard let changes = try? store.applyServerTransaction(.array(steps), now: 2000 + Double(step)) else { continue }
        applied += 1
        changed += since(changes)
        guard Int.random(in: 0..<3, using: &rng) == 0 || step == transactions - 1 else { continue }
        for (i, query) in queries.enumerated() {
          let (removed, added) = try query.changes(in: store, previous: kept[i], since: changed)
          kept[i].subtract(removed)
          kept[i].formUnion(added)
          let whole = Set(try store.serverQuery(query.q).triples)
          largest = max(largest, whole.count)
          if kept[i] != whole {
            problems.append(
              "seed \(seed), tx \(step), \(query.q.serialized()): kept \(kept[i].count) triples, whole \(whole.count); "
                + "missing \(whole.subtracting(kept[i]).count), extra \(kept[i].subtracting(whole).count)")
            kept[i] = whole
          }
        }
        changed = []
      }
    }
    return (problems, applied, largest)
  }

  @Test("A result kept from what transactions touched is the whole evaluation's, over 20 seeds × 200 transactions")
  func keptResultAgrees() throws {
    let (problems, applied, largest) = try Self.run(seeds: 0..<20, transactions: 200) { $0.added + $0.removed }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    // The transactions really ran, and the results really held entities.
    #expect(applied > 20 * 150)
    #expect(largest >= 20)
  }

  @Test("The check catches a query told only what was added (deletes and cascades then linger)")
  func checkCatchesMissedRemovals() throws {
    let (problems, _, _) = try Self.run(seeds: 0..<5, transactions: 200) { $0.added }
    #expect(!problems.isEmpty)
  }

  @Test("A transaction that touches nothing of the namespace changes nothing")
  func untouchedNamespace() throws {
    var store = try World.schemaStore()
    let goal = Self.goals[0]
    _ = try store.applyServerTransaction(
      [["add-triple", .string(goal), .string(World.gid), .string(goal)], ["add-triple", .string(goal), .string(World.gtitle), "a"]],
      now: 2000)
    let query = EntityLocalQuery(["goals": [:]], attrs: store.attrs)!
    let previous = Set(try store.serverQuery(query.q).triples)
    let user = Self.users[0]
    let changes = try store.applyServerTransaction(
      [["add-triple", .string(user), .string(World.uid), .string(user)], ["add-triple", .string(user), .string(World.email), "u@x"]],
      now: 2001)
    #expect(!changes.added.isEmpty)
    let (removed, added) = try query.changes(in: store, previous: previous, since: changes.added + changes.removed)
    #expect(removed.isEmpty && added.isEmpty)
    #expect(previous.contains(Triple(Self.goals[0], World.gtitle, "a", 2000)))
  }
}
