import Foundation
import InstantCore
@testable import InstantLocal
import InstantLocalTesting
import Logging
import TestSupport
import Testing
internal import OrderedCollections

/// The admin SDK's sessions (`init` with `__admin-token`), and servers that serve only the apps
/// made for them (`--strict-apps`).
@Suite("Admin sessions and strict apps", .timeLimit(.minutes(10)))
struct AdminSessionTests {
  @Test("A session with the app's admin token is bound by no rule; a wrong token is refused and not echoed")
  func adminToken() async throws {
    try await withInstantLocal { server in
      let app = try server.apps.create(title: "Admin session")
      try await server.setRules(["$default": ["allow": ["$default": "false"]]])
      let port = try await server.boundPort

      let wrong = UUID().uuidString.lowercased()
      let refused = TestSession(port: port, appID: app.id)
      let error = try await refused.request(["op": "init", "app-id": .string(app.id), "__admin-token": .string(wrong)])
      #expect(error["op"] == "error")
      #expect(error["type"] == "record-not-found")
      #expect(!error.serialized().contains(wrong))
      await refused.close()

      let guest = TestSession(port: port, appID: app.id)
      let guestInit = try await guest.request(["op": "init", "app-id": .string(app.id)])
      #expect(guestInit["auth"]?["admin?"] == false)
      let denied = try await guest.request([
        "op": "transact", "tx-steps": [blobAttr(newID(), "todos", "title")],
      ])
      #expect(denied["op"] == "error")
      await guest.close()

      let admin = TestSession(port: port, appID: app.id)
      let ok = try await admin.request(["op": "init", "app-id": .string(app.id), "__admin-token": .string(app.adminToken)])
      #expect(ok["op"] == "init-ok")
      #expect(ok["auth"]?["admin?"] == true)
      let titleAttr = newID()
      let idAttr = newID()
      let todo = newID()
      let written = try await admin.request([
        "op": "transact",
        "tx-steps": [
          blobAttr(idAttr, "todos", "id", unique: true), blobAttr(titleAttr, "todos", "title"),
          ["add-triple", .string(todo), .string(idAttr), .string(todo)],
          ["add-triple", .string(todo), .string(titleAttr), "by the admin"],
        ],
      ])
      #expect(written["op"] == "transact-ok")
      let result = try await admin.request(["op": "add-query", "q": ["todos": [:]]])
      #expect(result.serialized().contains("by the admin"))
      await admin.close()
    }
  }

  @Test("With strictApps only apps that were made exist; any other id is refused, not made")
  func strictApps() async throws {
    var configuration = InstantLocalConfiguration.testing()
    configuration.strictApps = true
    try await withInstantLocal(configuration: configuration) { server in
      let port = try await server.boundPort
      let unknown = UUID().uuidString.lowercased()
      let session = TestSession(port: port, appID: unknown)
      let refused = try await session.request(["op": "init", "app-id": .string(unknown)])
      #expect(refused["op"] == "error")
      #expect(refused["type"] == "record-not-found")
      #expect(refused["hint"]?["record-type"] == "app")
      await session.close()
      let (status, body) = try await server.signInGuest(appID: unknown)
      #expect(status == 400)
      #expect(body["type"] == "record-not-found")
      #expect(try server.apps.list().isEmpty)

      let app = try server.apps.create(title: "Made")
      let (made, ok) = try await server.connect(appID: app.id)
      #expect(ok["op"] == "init-ok")
      await made.close()
    }
  }
}

/// Stored rules that no longer compile leave the app closed, not open.
@Suite("Stored rules", .timeLimit(.minutes(10)))
struct StoredRulesTests {
  @Test("An app whose stored rules do not compile denies every request but an admin's")
  func failsClosed() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(newID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("data.sqlite").path
    let app = try AppCatalog(dataFile: path).create(title: "Broken rules")
    // As if the data file had been edited by hand: rules that cannot compile.
    let storage = try LocalStorage(path: path, logger: .instantLocalTesting)
    _ = try storage.saveRules(app.id, code: ["todos": ["allow": ["view": "auth.id =="]]])
    // The server says so in its log.
    let log = Locked<[String]>([])
    var logger = CapturingLogHandler.logger(log)
    logger.logLevel = .error
    try await withInstantLocal(configuration: .testing(dataFile: path), logger: logger) { server in
      let (session, _) = try await server.connect(appID: app.id)
      let refused = try await session.request(["op": "transact", "tx-steps": [blobAttr(newID(), "todos", "title")]])
      #expect(refused["op"] == "error")
      #expect(refused["type"] == "permission-denied")
      await session.close()
      let admin = TestSession(port: try await server.boundPort, appID: app.id)
      _ = try await admin.request(["op": "init", "app-id": .string(app.id), "__admin-token": .string(app.adminToken)])
      let written = try await admin.request(["op": "transact", "tx-steps": [blobAttr(newID(), "todos", "title")]])
      #expect(written["op"] == "transact-ok")
      await admin.close()
    }
    let logged = log.withLock { $0 }
    #expect(logged.count == 1 && logged[0].contains("the app's stored rules do not compile, so it denies everything"), "\(logged)")
  }
}
