import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// Pulling and pushing rules as `instant-cli push perms` does.
@Suite("Admin rules", .timeLimit(.minutes(10)))
struct AdminRulesTests {
  static let closed: JSON = ["todos": ["allow": ["create": "false"]]]

  @Test("Pushed rules are pulled back, versioned, and enforced for every session")
  func pushPull() async throws {
    try await AdminWorld.run(expectingErrors: ["the server rejected a write: Permission denied"]) { world in
      #expect(try await world.admin.pullRules() == nil)
      #expect(try await world.admin.pushRules(Self.closed) == 1)
      #expect(try await world.admin.pullRules() == Self.closed)
      #expect(try await world.admin.pushRules(Self.closed) == 1)
      let db = try await world.client()
      do {
        let write = try await db.transact(.update("todos", .id(newID()), ["title": "refused"]))
        try await write.synced()
        Issue.record("the pushed rules did not refuse the write")
      } catch let error as InstantClientError {
        #expect(error.isPermissionDenied)
      }
      let open: JSON = ["todos": ["allow": ["create": "true"]]]
      #expect(try await world.admin.pushRules(open) == 2)
      let write = try await db.transact(.update("todos", .id(newID()), ["title": "allowed"]))
      try await write.synced()
      await db.shutdown()
    }
  }

  @Test("Rules that do not compile are refused with every problem, and the rules in force stay")
  func invalidRules() async throws {
    try await AdminWorld.run { world in
      try await world.admin.pushRules(Self.closed)
      let broken: JSON = ["todos": ["allow": ["view": "auth.id ==", "update": "nope("]], "$codes": ["allow": ["view": "true"]]]
      do {
        try await world.admin.pushRules(broken)
        Issue.record("broken rules were accepted")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .validationFailed)
        #expect((error.server?.hint["errors"]?.arrayValue?.count ?? 0) >= 3)
      }
      #expect(try await world.admin.pullRules() == Self.closed)
    }
  }

  @Test("Pushed rules survive a restart and are enforced after it")
  func rulesPersist() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(newID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("data.sqlite").path
    let app = try await AdminWorld.run(configuration: .testing(dataFile: path)) { world in
      try await world.admin.pushRules(Self.closed)
      return world.app
    }
    try await withInstantLocal(configuration: .testing(dataFile: path)) { server in
      let baseURL = try #require(await server.baseURL)
      let admin = InstantAdmin(appID: app.id, adminToken: app.adminToken, apiURI: baseURL)
      #expect(try await admin.pullRules() == Self.closed)
      do {
        try await admin.asGuest().transact([.update("todos", .id(newID()), ["title": "refused"])])
        Issue.record("the stored rules were not enforced after a restart")
      } catch let error as InstantAdminError {
        #expect(error.isPermissionDenied)
      }
    }
  }

  @Test("While the server enforces one set of rules for every app, a push is refused")
  func serverRulesWin() async throws {
    try await AdminWorld.run { world in
      try await world.server.setRules(Self.closed)
      do {
        try await world.admin.pushRules(["todos": ["allow": ["create": "true"]]])
        Issue.record("a push replaced the server's rules")
      } catch let error as InstantAdminError {
        #expect(error.message.contains("--rules"))
      }
      #expect(try await world.admin.pullRules() == Self.closed)
      try await world.server.setRules(nil)
      #expect(try await world.admin.pullRules() == nil)
    }
  }
}
