import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// `as-email`, `as-token` and `as-guest`: the admin API under the app's rules.
@Suite("Acting as a user", .timeLimit(.minutes(10)))
struct AdminImpersonationTests {
  static let ownerRules: JSON = [
    "todos": [
      "allow": [
        "view": "auth.id == data.creatorId", "create": "auth.id == data.creatorId",
        "update": "auth.id == data.creatorId", "delete": "auth.id == data.creatorId",
      ]
    ]
  ]

  @Test("Each asker sees what the rules let them see; the admin sees everything")
  func queriesUnderRules() async throws {
    try await AdminWorld.run { world in
      try await world.admin.pushRules(Self.ownerRules)
      let alice = try await world.admin.createToken(email: "alice@example.com")
      let bob = try await world.admin.createToken(email: "bob@example.com")
      try await world.admin.transact([
        .update("todos", .id(newID()), ["title": "Alice's", "creatorId": .string(alice.id)]),
        .update("todos", .id(newID()), ["title": "Bob's", "creatorId": .string(bob.id)]),
      ])
      func titles(_ admin: InstantAdmin) async throws -> Set<String> {
        Set(try await admin.query(["todos": [:]])["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? [])
      }
      #expect(try await titles(world.admin) == ["Alice's", "Bob's"])
      #expect(try await titles(world.admin.asUser(email: "alice@example.com")) == ["Alice's"])
      // `as-token` needs no admin token.
      let bobToken = try #require(bob.refreshToken)
      let asBob = InstantAdmin(appID: world.app.id, adminToken: nil, apiURI: world.baseURL).asUser(refreshToken: bobToken)
      #expect(try await titles(asBob) == ["Bob's"])
      #expect(try await titles(world.admin.asGuest()) == [])
      #expect(try await titles(InstantAdmin(appID: world.app.id, adminToken: nil, apiURI: world.baseURL).asGuest()) == [])
    }
  }

  @Test("A user's transaction is checked by the rules; a refused one writes nothing")
  func transactionsUnderRules() async throws {
    try await AdminWorld.run { world in
      try await world.admin.pushRules(Self.ownerRules)
      let alice = try await world.admin.createToken(email: "alice@example.com")
      let asAlice = world.admin.asUser(email: "alice@example.com")
      do {
        try await asAlice.transact([.update("todos", .id(newID()), ["title": "Forged", "creatorId": .string(newID())])])
        Issue.record("the rules let a forged creatorId through")
      } catch let error as InstantAdminError {
        #expect(error.isPermissionDenied)
      }
      try await asAlice.transact([.update("todos", .id(newID()), ["title": "Mine", "creatorId": .string(alice.id)])])
      let all = try await world.admin.query(["todos": [:]])
      #expect(all["todos"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Mine"])
      do {
        try await world.admin.asGuest().transact([
          .update("todos", .id(newID()), ["title": "Guest", "creatorId": .string(alice.id)])
        ])
        Issue.record("a guest wrote under owner rules")
      } catch let error as InstantAdminError {
        #expect(error.isPermissionDenied)
      }
    }
  }

  @Test("as-email needs the admin token; a bad as-token is refused")
  func impersonationCredentials() async throws {
    try await AdminWorld.run { world in
      _ = try await world.admin.createToken(email: "alice@example.com")
      let tokenless = InstantAdmin(appID: world.app.id, adminToken: nil, apiURI: world.baseURL)
      do {
        _ = try await tokenless.asUser(email: "alice@example.com").query(["todos": [:]])
        Issue.record("as-email worked without the admin token")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .paramMissing)
      }
      do {
        _ = try await world.admin.asUser(email: "nobody@example.com").query(["todos": [:]])
        Issue.record("an unknown email was impersonated")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .recordNotFound)
      }
      do {
        _ = try await tokenless.asUser(refreshToken: newID()).query(["todos": [:]])
        Issue.record("an unknown refresh token was impersonated")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .recordNotFound)
      }
      do {
        _ = try await tokenless.asUser(refreshToken: "not-a-uuid").query(["todos": [:]])
        Issue.record("a malformed refresh token was impersonated")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .paramMalformed)
      }
    }
  }
}
