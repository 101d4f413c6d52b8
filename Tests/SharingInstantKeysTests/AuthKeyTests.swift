import InstantDB
import SharingInstant
import TestSupport
import Testing

@Suite("Auth key", .timeLimit(.minutes(10)))
struct AuthKeyTests {
  @Test("$auth.signInAsGuest and signOut move the session's state and operation status")
  func guestAndSignOut() async throws {
    try await KeysServer.withTwoClients { a, _ in
      let auth = Shared(.instantAuth(client: a))
      try await eventually("auth state known") { auth.wrappedValue.state == .signedOut }
      #expect(auth.wrappedValue.isIdle)

      auth.signInAsGuest()
      try await eventually("guest") { auth.wrappedValue.isGuest && auth.wrappedValue.isSuccess }
      let user = try #require(auth.wrappedValue.user)
      #expect(user.isGuest)

      auth.signOut()
      try await eventually("signed out") { auth.wrappedValue.state == .signedOut && auth.wrappedValue.isSuccess }
      #expect(!auth.wrappedValue.isSignedIn)
    }
  }

  @Test("A failed operation sets error and status; clearError clears them")
  func failure() async throws {
    try await KeysServer.withTwoClients { a, _ in
      let auth = Shared(.instantAuth(client: a))
      auth.verifyMagicCode(email: "nobody@example.com", code: "000000")
      try await eventually("the error") { auth.wrappedValue.operationStatus == .error }
      #expect(auth.wrappedValue.isError)
      auth.clearError()
      #expect(auth.wrappedValue.error == nil)
      #expect(auth.wrappedValue.isIdle)
    }
  }
}
