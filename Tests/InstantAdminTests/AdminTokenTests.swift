import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// The admin token: required, checked against the app, never echoed (docs/security.md).
@Suite("Admin tokens", .timeLimit(.minutes(10)))
struct AdminTokenTests {
  @Test("Missing, malformed and wrong tokens get the reference's errors, without the token in them")
  func wrongTokens() async throws {
    try await AdminWorld.run { world in
      let query: JSON = ["query": ["goals": [:]]]
      let noApp = try await world.http("POST", "admin/query", headers: ["authorization": "Bearer \(world.app.adminToken)"], body: query)
      #expect(noApp.status == 400)
      #expect(noApp.body["type"] == "param-missing")
      #expect(noApp.body["hint"]?["possible-ins"] == [["query-params", "app_id"]])

      let noToken = try await world.http("POST", "admin/query", headers: ["app-id": world.app.id], body: query)
      #expect(noToken.status == 400)
      #expect(noToken.body["message"] == #"Missing parameter: ["headers" "authorization"]"#)

      let malformed = "Bearer not-a-token-but-a-secret"
      let bad = try await world.http("POST", "admin/query", headers: ["app-id": world.app.id, "authorization": malformed], body: query)
      #expect(bad.status == 400)
      #expect(bad.body["type"] == "param-malformed")
      #expect(!bad.text.contains("not-a-token-but-a-secret"))

      let wrong = newID()
      let refused = try await world.http("POST", "admin/query", headers: ["app-id": world.app.id, "authorization": "Bearer \(wrong)"], body: query)
      #expect(refused.status == 400)
      #expect(refused.body["type"] == "record-not-found")
      #expect(refused.body["message"] == "Record not found: app-admin-token")
      #expect(refused.body["hint"]?["record-type"] == "app-admin-token")
      #expect(!refused.text.contains(wrong))

      // The Swift client reports the same refusal, and never shows the token.
      let impostor = InstantAdmin(appID: world.app.id, adminToken: wrong, apiURI: world.baseURL)
      await #expect(throws: InstantAdminError.self) { try await impostor.query(["goals": [:]]) }
      do {
        _ = try await impostor.transact([.update("goals", .id(newID()), ["title": "no"])])
        Issue.record("a wrong token wrote")
      } catch let error as InstantAdminError {
        #expect(error.kind == .rejected)
        #expect(error.server?.type == .recordNotFound)
        #expect(!"\(error)".contains(wrong))
      }
      #expect(!"\(world.admin)".contains(world.app.adminToken))
      #expect(try await world.admin.query(["goals": [:]]) == ["goals": []])
    }
  }

  @Test("An app's token opens only that app: another app's token is refused on /admin and named on /dash")
  func tokensAreBoundToTheirApp() async throws {
    try await AdminWorld.run { world in
      let other = try world.server.apps.create(title: "Other")
      let crossed = InstantAdmin(appID: world.app.id, adminToken: other.adminToken, apiURI: world.baseURL)
      do {
        _ = try await crossed.query(["goals": [:]])
        Issue.record("another app's token was accepted")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .recordNotFound)
      }
      do {
        _ = try await crossed.pullRules()
        Issue.record("another app's token pulled rules")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .validationFailed)
        #expect(error.message.contains("does not belong to app \(world.app.id)"))
      }
      let stranger = InstantAdmin(appID: world.app.id, adminToken: newID(), apiURI: world.baseURL)
      do {
        _ = try await stranger.pullRules()
        Issue.record("an unknown token pulled rules")
      } catch let error as InstantAdminError {
        #expect(error.server?.status == 401)
      }
    }
  }

  @Test("A rotated token replaces the old one at once, on a running server")
  func rotation() async throws {
    try await AdminWorld.run { world in
      _ = try await world.admin.query(["goals": [:]])
      let fresh = try world.server.apps.rotateToken(appID: world.app.id)
      await #expect(throws: InstantAdminError.self) { try await world.admin.query(["goals": [:]]) }
      let rotated = InstantAdmin(appID: world.app.id, adminToken: fresh, apiURI: world.baseURL)
      #expect(try await rotated.query(["goals": [:]]) == ["goals": []])
    }
  }

  @Test("An app made on first use has no admin token: admin requests are refused and say how to get one")
  func firstUseAppHasNoToken() async throws {
    try await AdminWorld.run { world in
      let devApp = newID()
      // A session makes the app, as in development.
      let db = InstantAdmin(appID: devApp, adminToken: nil, apiURI: world.baseURL).asGuest()
      #expect(try await db.query(["goals": [:]]) == ["goals": []])
      let admin = InstantAdmin(appID: devApp, adminToken: newID(), apiURI: world.baseURL)
      do {
        _ = try await admin.query(["goals": [:]])
        Issue.record("a token-less app accepted an admin token")
      } catch let error as InstantAdminError {
        #expect(error.message.contains("instant-local apps rotate-token --app \(devApp)"))
      }
      let token = try world.server.apps.rotateToken(appID: devApp)
      #expect(try await InstantAdmin(appID: devApp, adminToken: token, apiURI: world.baseURL).query(["goals": [:]]) == ["goals": []])
    }
  }

  @Test("An app with an admin token shows its schema only with it; a token-less development app without one")
  func schemaPull() async throws {
    try await AdminWorld.run { world in
      let path = "dash/apps/\(world.app.id)/schema/pull"
      let bare = try await world.http("GET", path)
      #expect(bare.status == 400)
      #expect(bare.body["type"] == "param-missing")
      let withToken = try await world.http("GET", path, headers: ["authorization": "Bearer \(world.app.adminToken)"])
      #expect(withToken.status == 200)
      #expect(withToken.body["schema"]?["blobs"]?["$users"] != nil)
      let devApp = newID()
      _ = try await InstantAdmin(appID: devApp, adminToken: nil, apiURI: world.baseURL).asGuest().query(["goals": [:]])
      #expect(try await world.http("GET", "dash/apps/\(devApp)/schema/pull").status == 200)
    }
  }

  @Test("The data file keeps only a token's hash")
  func tokensAreStoredHashed() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("admin-\(newID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("data.sqlite").path
    let catalog = try AppCatalog(dataFile: path)
    let app = try catalog.create(title: "Hashed")
    let rotated = try catalog.rotateToken(appID: app.id)
    #expect(try catalog.list().map(\.id) == [app.id])
    #expect(try catalog.list().first?.hasAdminToken == true)
    var bytes = Data()
    for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      bytes += try Data(contentsOf: directory.appendingPathComponent(file))
    }
    #expect(!bytes.isEmpty)
    for token in [app.adminToken, rotated] {
      #expect(bytes.range(of: Data(token.utf8)) == nil, "the token is in the data file")
    }
    #expect(throws: InstantLocalError.self) { try catalog.rotateToken(appID: newID()) }
    #expect(throws: InstantLocalError.self) { try catalog.create(title: "  ") }
  }
}
