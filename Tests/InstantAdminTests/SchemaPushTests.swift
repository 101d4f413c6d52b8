import Foundation
import InstantAdmin
import InstantCore
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// `instant-cli push schema`'s requests: `schema/steps/apply`, then the indexing-jobs group.
@Suite("Schema push", .timeLimit(.minutes(10)))
struct SchemaPushTests {
  static func attr(_ id: String, _ etype: String, _ label: String) -> JSON {
    [
      "id": .string(id), "forward-identity": [.string(id), .string(etype), .string(label)], "reverse-identity": .null,
      "inferred-types": .null, "value-type": "blob", "cardinality": "one", "index?": false, "required?": false,
      "unique?": false, "catalog": "user",
    ]
  }

  func push(_ world: AdminWorld, _ steps: JSON) async throws -> JSON {
    let answer = try await world.http(
      "POST", "dash/apps/\(world.app.id)/schema/steps/apply",
      headers: ["authorization": "Bearer \(world.app.adminToken)"], body: ["steps": steps])
    #expect(answer.status == 200, "\(answer.text)")
    return answer.body
  }

  func pulledAttr(_ world: AdminWorld, _ etype: String, _ label: String) async throws -> JSON? {
    let pull = try await world.http(
      "GET", "dash/apps/\(world.app.id)/schema/pull", headers: ["authorization": "Bearer \(world.app.adminToken)"])
    return pull.body["schema"]?["blobs"]?[etype]?[label]
  }

  @Test("A new namespace with a unique, indexed, required attribute: attrs made, jobs completed, schema pulled back")
  func newNamespace() async throws {
    try await AdminWorld.run { world in
      let (idAttr, email) = (newID(), newID())
      let answer = try await push(world, [
        ["add-attr", Self.attr(idAttr, "people", "id")],
        ["add-attr", Self.attr(email, "people", "email")],
        ["unique", ["attr-id": .string(idAttr), "forward-identity": [.string(idAttr), "people", "id"]]],
        ["unique", ["attr-id": .string(email), "forward-identity": [.string(email), "people", "email"]]],
        ["index", ["attr-id": .string(email), "forward-identity": [.string(email), "people", "email"]]],
        ["check-data-type", ["attr-id": .string(email), "checked-data-type": "string", "forward-identity": [.string(email), "people", "email"]]],
      ])
      #expect(answer["transaction"]?["id"]?.intValue != nil)
      let jobs = try #require(answer["indexing-jobs"]?["jobs"]?.arrayValue)
      #expect(jobs.count == 4)
      #expect(jobs.allSatisfy { $0["job_status"] == "completed" })
      #expect(answer["steps"]?[2]?[1]?["job-id"] == jobs[0]["id"])
      let group = try #require(answer["indexing-jobs"]?["group-id"]?.stringValue)
      let polled = try await world.http(
        "GET", "dash/apps/\(world.app.id)/indexing-jobs/group/\(group)", headers: ["authorization": "Bearer \(world.app.adminToken)"])
      #expect(polled.body["jobs"]?.arrayValue?.count == 4)
      let pulled = try #require(try await pulledAttr(world, "people", "email"))
      #expect(pulled["unique?"] == true)
      #expect(pulled["index?"] == true)
      #expect(pulled["checked-data-type"] == "string")
      // The new unique attribute is enforced.
      try await world.admin.transact([.update("people", .id(newID()), ["email": "a@example.com"])])
      await #expect(throws: InstantAdminError.self) {
        try await world.admin.transact([.update("people", .id(newID()), ["email": "a@example.com"])])
      }
    }
  }

  @Test("A job the data does not fit ends errored and changes nothing")
  func jobsCheckTheData() async throws {
    try await AdminWorld.run { world in
      try await world.admin.transact([
        .update("people", .id(newID()), ["email": "same@example.com", "age": 30]),
        .update("people", .id(newID()), ["email": "same@example.com", "age": "forty"]),
        .update("people", .id(newID()), ["age": 50]),
      ])
      let schema = try #require(try await pulledAttr(world, "people", "email"))
      let email = try #require(schema["id"]?.stringValue)
      let age = try #require(try await pulledAttr(world, "people", "age")?["id"]?.stringValue)
      let answer = try await push(world, [
        ["unique", ["attr-id": .string(email)]],
        ["required", ["attr-id": .string(email)]],
        ["check-data-type", ["attr-id": .string(age), "checked-data-type": "number"]],
      ])
      let jobs = try #require(answer["indexing-jobs"]?["jobs"]?.arrayValue)
      #expect(jobs.map { $0["job_status"] } == ["errored", "errored", "errored"])
      #expect(jobs[0]["invalid_unique_value"] == "same@example.com")
      #expect(jobs[2]["invalid_triples_sample"]?[0]?["value"] == "forty")
      let after = try #require(try await pulledAttr(world, "people", "email"))
      #expect(after["unique?"] == false)
      #expect(after["required?"] == false)
      #expect((try await pulledAttr(world, "people", "age"))?["checked-data-type"] == nil)
    }
  }

  @Test("Renames and deletes go through; a push needs the app's admin token")
  func renameDeleteAndAuth() async throws {
    try await AdminWorld.run { world in
      try await world.admin.transact([.update("notes", .id(newID()), ["body": "hi", "tmp": 1])])
      let body = try #require(try await pulledAttr(world, "notes", "body")?["id"]?.stringValue)
      let tmp = try #require(try await pulledAttr(world, "notes", "tmp")?["id"]?.stringValue)
      _ = try await push(world, [
        ["update-attr", ["id": .string(body), "forward-identity": [.string(newID()), "notes", "text"]]],
        ["delete-attr", .string(tmp)],
      ])
      #expect(try await pulledAttr(world, "notes", "text") != nil)
      #expect(try await pulledAttr(world, "notes", "tmp") == nil)
      #expect(try await world.admin.query(["notes": [:]])["notes"]?[0]?["text"] == "hi")
      let refused = try await world.http(
        "POST", "dash/apps/\(world.app.id)/schema/steps/apply", headers: ["authorization": "Bearer \(newID())"],
        body: ["steps": [["delete-attr", .string(body)]]])
      #expect(refused.status == 401)
      #expect(try await pulledAttr(world, "notes", "text") != nil)
    }
  }
}
