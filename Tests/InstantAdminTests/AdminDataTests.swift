import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// `POST /admin/query` and `/admin/transact` as the admin: what `@instantdb/admin` gets back.
@Suite("Admin data", .timeLimit(.minutes(10)))
struct AdminDataTests {
  @Test("An admin transaction's data comes back from a query as a tree, links nested")
  func transactThenQuery() async throws {
    try await AdminWorld.run { world in
      let goal = newID()
      let run = newID()
      let swim = newID()
      let txID = try await world.admin.transact([
        .update("goals", .id(goal), ["title": "Get fit"]),
        .update("todos", .id(run), ["title": "Run"]),
        .update("todos", .id(swim), ["title": "Swim"]),
        .link("goals", .id(goal), ["todos": [.string(run), .string(swim)]]),
      ])
      #expect(txID > 0)
      let result = try await world.admin.query(["goals": ["todos": [:]]])
      let todos = try #require(result["goals"]?[0]?["todos"]?.arrayValue)
      #expect(result["goals"]?.arrayValue?.count == 1)
      #expect(result["goals"]?[0]?["id"] == .string(goal))
      #expect(result["goals"]?[0]?["title"] == "Get fit")
      #expect(Set(todos.compactMap { $0["title"]?.stringValue }) == ["Run", "Swim"])
      #expect(Set(todos.compactMap { $0["id"]?.stringValue }) == [run, swim])
      // `where` and `fields` run as on a client.
      let one = try await world.admin.query(["todos": ["$": ["where": ["title": "Swim"], "fields": ["title"]]]])
      #expect(one == ["todos": [["id": .string(swim), "title": "Swim"]]])
    }
  }

  @Test("A client subscribed to a query sees an admin write")
  func clientSeesAdminWrite() async throws {
    try await AdminWorld.run { world in
      let db = try await world.client()
      let seen = Locked<[String]>([])
      let reader = Task {
        for await result in db.subscribe(["todos": [:]]) {
          seen.withLock { $0 = result.data["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? [] }
        }
      }
      try await eventually("the client has its first result") { await db.currentResult(["todos": [:]]) != nil }
      try await world.admin.transact([.update("todos", .id(newID()), ["title": "From the backend"])])
      try await eventually("the client sees the admin's todo") { seen.withLock { $0 == ["From the backend"] } }
      reader.cancel()
      await db.shutdown()
    }
  }

  @Test("throw-on-missing-attrs? refuses a transaction that would create attributes, and writes nothing")
  func missingAttrs() async throws {
    try await AdminWorld.run { world in
      let headers = ["app-id": world.app.id, "authorization": "Bearer \(world.app.adminToken)"]
      let steps: JSON = [["update", "goals", .string(newID()), ["color": "red"]]]
      let refused = try await world.http(
        "POST", "admin/transact", headers: headers, body: ["steps": steps, "throw-on-missing-attrs?": true])
      #expect(refused.status == 400)
      #expect(refused.body["type"] == "validation-failed")
      #expect(refused.body["message"] == "Validation failed for steps: Attributes are missing in your schema")
      let missing = refused.body["hint"]?["errors"]?[0]?["hint"]?["attributes"]?.arrayValue?.compactMap(\.stringValue)
      #expect(Set(missing ?? []) == ["goals.color", "goals.id"])
      #expect(try await world.admin.query(["goals": [:]]) == ["goals": []])
      let accepted = try await world.http("POST", "admin/transact", headers: headers, body: ["steps": steps])
      #expect(accepted.status == 200)
      #expect(accepted.body["tx-id"]?.intValue != nil)
      #expect(try await world.admin.query(["goals": [:]])["goals"]?[0]?["color"] == "red")
    }
  }

  @Test("Malformed steps and queries get the reference's errors and change nothing")
  func malformed() async throws {
    try await AdminWorld.run { world in
      let headers = ["app-id": world.app.id, "authorization": "Bearer \(world.app.adminToken)"]
      let good: JSON = ["update", "goals", .string(newID()), ["title": "kept out"]]
      for steps: JSON in [[good, ["explode", "goals", "x", [:]]], [good, "not a step"], [good, ["update", "goals"]], "steps"] {
        let answer = try await world.http("POST", "admin/transact", headers: headers, body: ["steps": steps])
        #expect(answer.status == 400, "\(steps)")
        #expect(answer.body["type"] == "validation-failed" || answer.body["type"] == "param-malformed", "\(steps)")
      }
      let noSteps = try await world.http("POST", "admin/transact", headers: headers, body: [:])
      #expect(noSteps.body["type"] == "param-missing")
      let noQuery = try await world.http("POST", "admin/query", headers: headers, body: [:])
      #expect(noQuery.body["type"] == "param-missing")
      let notJSON = try await world.http("POST", "admin/query", headers: headers.merging(["content-type": "application/json"]) { $1 })
      #expect(notJSON.status == 400)
      #expect(try await world.admin.query(["goals": [:]]) == ["goals": []])
    }
  }
}
