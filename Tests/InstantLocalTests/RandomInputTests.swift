import InstantCore
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// Random well-formed JSON in every field of every op: the server answers each message (or stays
/// silent where the protocol says so) and never drops the session.
@Suite("random input")
struct RandomInputTests {
  static let ops = [
    "init", "add-query", "remove-query", "transact", "join-room", "leave-room", "set-presence", "client-broadcast",
    "refresh", "error", "start-sync",
  ]
  static let actions = [
    "add-triple", "retract-triple", "delete-entity", "deep-merge-triple", "add-attr", "update-attr", "delete-attr",
    "rule-params",
  ]

  func value(_ g: inout SeededGenerator, depth: Int = 0) -> JSON {
    switch Int.random(in: 0..<(depth > 2 ? 5 : 8), using: &g) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &g))
    case 2: return .number(Double(Int.random(in: -5...5, using: &g)))
    case 3: return .string(["", "goals", "id", newID(), "$users", "x.y"].randomElement(using: &g)!)
    case 4: return .number(.random(in: -1e300...1e300, using: &g))
    case 5: return .array((0..<Int.random(in: 0...4, using: &g)).map { _ in value(&g, depth: depth + 1) })
    case 6:
      var o: JSONObject = [:]
      for _ in 0..<Int.random(in: 0...3, using: &g) {
        o[["goals", "$", "where", "limit", "id", "todos", "order"].randomElement(using: &g)!] = value(&g, depth: depth + 1)
      }
      return .object(o)
    default:
      let action = Self.actions.randomElement(using: &g)!
      return .array([.string(action)] + (0..<Int.random(in: 0...4, using: &g)).map { _ in value(&g, depth: depth + 1) })
    }
  }

  @Test(arguments: [20_261_122, 1, 2, 3, 4] as [UInt64])
  func randomMessagesNeverBreakTheSession(seed: UInt64) async throws {
    // The session must survive its input, not the machine's load: the test socket answers pings
    // on the cooperative pool, which the whole suite can hold for longer than the default 5 s
    // ping (one run, 2026-11-28, found the session closed with every reply received).
    var configuration = InstantLocalConfiguration.testing()
    configuration.pingInterval = .seconds(60)
    try await withInstantLocal(configuration: configuration) { server in
      let (s, _) = try await server.connect()
      var g = SeededGenerator(seed: seed)
      for i in 0..<400 {
        var message: JSONObject = ["op": .string(Self.ops.randomElement(using: &g)!), "client-event-id": .string("r\(i)")]
        for key in ["q", "tx-steps", "room-id", "data", "topic", "app-id", "refresh-token", "versions"] where Bool.random(using: &g) {
          message[key] = key == "tx-steps" ? .array((0..<3).map { _ in value(&g, depth: 1) }) : value(&g)
        }
        s.send(.object(message))
      }
      // 400 random messages wait their turn behind the whole suite on two cores (a clean-clone CI
      // run of f0416f9 saw 30 s pass): the bound is generous, the subject is the session's survival.
      let probe: JSON
      do {
        probe = try await s.request(["op": "add-query", "q": ["goals": [:]]])
      } catch {
        let closed = await s.mailbox.closed
        Issue.record("no answer to the probe (the socket is \(closed ? "closed" : "open")): \(error)")
        throw error
      }
      #expect(probe["op"] == "add-query-ok" || probe["op"] == "add-query-exists")
      #expect(await s.mailbox.closed == false)
      let (fresh, reply) = try await server.connect()
      #expect(reply["op"] == "init-ok")
      await s.close()
      await fresh.close()
    }
  }
}
