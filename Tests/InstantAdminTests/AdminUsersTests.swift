import Foundation
import InstantAdmin
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
internal import OrderedCollections

/// Users, refresh tokens and magic codes through the admin API, and a client signing in with a
/// token the backend made.
@Suite("Admin users", .timeLimit(.minutes(10)))
struct AdminUsersTests {
  @Test("createToken makes the user once; every key finds them; a client signs in with the token")
  func createToken() async throws {
    try await AdminWorld.run { world in
      let first = try await world.admin.createToken(email: "Ada@Example.com")
      let again = try await world.admin.createToken(email: "ada@example.com")
      #expect(first.id == again.id)
      #expect(first.email == "ada@example.com")
      let token = try #require(first.refreshToken)
      #expect(again.refreshToken != token)
      #expect(!"\(first)".contains(token))
      for key: InstantAdmin.UserKey in [.email("ada@example.com"), .id(first.id), .refreshToken(token)] {
        #expect(try await world.admin.user(key)?.id == first.id, "\(key)")
      }
      #expect(try await world.admin.user(.email("nobody@example.com")) == nil)

      let db = InstantClient(
        appId: world.app.id, apiURI: world.baseURL, websocketURI: try #require(await world.server.webSocketURL),
        storage: .memory)
      let signedIn = try await db.signInWithToken(token)
      #expect(signedIn.id == first.id)
      await #expect(throws: InstantClientError.self) { try await db.signInWithToken(newID()) }
      await db.shutdown()

      let byID = try await world.admin.createToken(id: first.id)
      #expect(byID.id == first.id)
    }
  }

  @Test("Deleting a user removes them and every token of theirs")
  func deleteUser() async throws {
    try await AdminWorld.run { world in
      let user = try await world.admin.createToken(email: "gone@example.com")
      let token = try #require(user.refreshToken)
      let deleted = try await world.admin.deleteUser(.email("gone@example.com"))
      #expect(deleted?.id == user.id)
      #expect(try await world.admin.user(.id(user.id)) == nil)
      #expect(try await world.admin.deleteUser(.id(user.id)) == nil)
      do {
        _ = try await world.admin.asUser(refreshToken: token).query(["todos": [:]])
        Issue.record("a deleted user's token still works")
      } catch let error as InstantAdminError {
        #expect(error.server?.type == .recordNotFound)
      }
    }
  }

  @Test("A generated magic code signs the user in once")
  func magicCodes() async throws {
    try await AdminWorld.run { world in
      let code = try await world.admin.generateMagicCode(email: "mia@example.com")
      #expect(code.count == 6)
      let wrong = code == "000000" ? "111111" : "000000"
      await #expect(throws: InstantAdminError.self) { try await world.admin.verifyMagicCode(email: "mia@example.com", code: wrong) }
      let user = try await world.admin.verifyMagicCode(email: "mia@example.com", code: code)
      #expect(user.email == "mia@example.com")
      #expect(user.refreshToken != nil)
      await #expect(throws: InstantAdminError.self) { try await world.admin.verifyMagicCode(email: "mia@example.com", code: code) }
    }
  }

  @Test("Signing out by email ends every session of the user; by token, only that one")
  func signOut() async throws {
    try await AdminWorld.run { world in
      let one = try #require(try await world.admin.createToken(email: "sam@example.com").refreshToken)
      let two = try #require(try await world.admin.createToken(email: "sam@example.com").refreshToken)
      let three = try #require(try await world.admin.createToken(email: "sam@example.com").refreshToken)
      try await world.admin.signOut(.refreshToken(one))
      #expect(try await world.admin.user(.refreshToken(one)) == nil)
      #expect(try await world.admin.user(.refreshToken(two)) != nil)
      try await world.admin.signOut(.email("sam@example.com"))
      #expect(try await world.admin.user(.refreshToken(two)) == nil)
      #expect(try await world.admin.user(.refreshToken(three)) == nil)
      #expect(try await world.admin.user(.email("sam@example.com")) != nil)
      await #expect(throws: InstantAdminError.self) { try await world.admin.signOut(.email("nobody@example.com")) }
    }
  }
}
