import Foundation
import InstantCore
import TestSupport
import Testing

@testable import InstantDB
internal import OrderedCollections
import InstantLocal

/// Auth end to end against instant-local: guests, magic codes, sign-out, the stored token.
@Suite("Auth", .timeLimit(.minutes(10)))
struct AuthTests {
  @Test("Guest sign-in, then sign-out: the state follows, the socket carries the token, the server forgets it")
  func guestThenSignOut() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let db = server.client(transport: transport)
      defer { Task { await db.shutdown() } }
      let states = Watching(db.authStateUpdates())
      try await waitFor(states, "signed out at start") { $0 == .signedOut }

      let guest = try await db.signInAsGuest()
      #expect(guest.isGuest)
      #expect(guest.email == nil)
      try await waitFor(states, "guest") { $0 == .guest(guest) }
      try await eventually("a new socket sends init with the guest's token") {
        transport.sent.contains { $0.contains("\"op\":\"init\"") && $0.contains(guest.refreshToken) }
      }
      try await eventually("connected as the guest") { await db.status == .authenticated }

      await db.signOut()
      try await waitFor(states, "signed out") { $0 == .signedOut }
      try await eventually("an anonymous init follows the guest's") {
        // The first socket may open before or after the sign-in: only the order matters.
        let inits = transport.sent.filter { $0.contains("\"op\":\"init\"") }
        guard let guestInit = inits.lastIndex(where: { $0.contains(guest.refreshToken) }) else { return false }
        return inits[(guestInit + 1)...].contains { !$0.contains("refresh-token") }
      }
      await #expect(throws: InstantClientError.self) { try await db.authAPI.verifyRefreshToken(guest.refreshToken) }
    }
  }

  /// An unsigned JWT with `claims`, as a test makes one for an instant-local started with
  /// `unverifiedIDTokens` (which then reads the claims of a token for a client name the app has not
  /// configured; the server's verification is `IDTokenTests`').
  static func idToken(_ claims: JSON) -> String {
    func part(_ json: JSON) -> String {
      Data(json.serialized().utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    return part(["alg": "none", "typ": "JWT"]) + "." + part(claims) + ".signature"
  }

  @Test("Sign in with an ID token: the token's email is the user; expired or malformed tokens are clear errors")
  func idToken() async throws {
    try await withServer(unverifiedIDTokens: true) { server in
      let db = server.client()
      defer { Task { await db.shutdown() } }
      let later = Date().timeIntervalSince1970 + 3600
      let expired = Self.idToken(["sub": "1", "email": "bob@example.com", "exp": .number(Date().timeIntervalSince1970 - 60)])
      let error = await #expect(throws: InstantClientError.self) {
        try await db.signInWithIdToken(clientName: "google", idToken: expired)
      }
      #expect(error?.kind == .authRejected)
      #expect(error.map { "\($0)" }?.contains(expired) == false, "the error does not echo the token")
      await #expect(throws: InstantClientError.self) {
        try await db.signInWithIdToken(clientName: "google", idToken: "not-a-jwt")
      }
      let signedOut = await db.authState
      #expect(signedOut == .signedOut)

      let token = Self.idToken(["sub": "1", "email": "Bob@Example.com", "exp": .number(later)])
      let user = try await db.signInWithIdToken(clientName: "google", idToken: token)
      #expect(user.email == "bob@example.com")
      #expect(!user.isGuest)
      let state = await db.authState
      #expect(state == .signedIn(user))
      try await eventually("connected as Bob") { await db.status == .authenticated }
      // The same email through a magic code is the same user.
      try await db.sendMagicCode(email: "bob@example.com")
      let code = try #require(await server.server.lastMagicCode(appID: LocalServer.appID, email: "bob@example.com"))
      let again = try await db.signInWithMagicCode(email: "bob@example.com", code: code)
      #expect(again.id == user.id)
    }
  }

  @Test("A wrong magic code is a clear error and changes nothing; the right one signs in, upgrading the guest")
  func magicCode() async throws {
    try await withServer { server in
      let db = server.client()
      defer { Task { await db.shutdown() } }
      let guest = try await db.signInAsGuest()
      try await db.sendMagicCode(email: "alice@example.com")
      let code = try #require(await server.server.lastMagicCode(appID: LocalServer.appID, email: "alice@example.com"))
      let wrong = code == "000000" ? "111111" : "000000"

      let error = await #expect(throws: InstantClientError.self) {
        try await db.signInWithMagicCode(email: "alice@example.com", code: wrong)
      }
      #expect(error?.kind == .authRejected)
      #expect(error?.serverType == "record-not-found")
      #expect(error?.hint == ["record-type": "app-user-magic-code"])
      #expect(error.map { "\($0)" }?.contains(wrong) == false, "the error does not echo the code")
      let unchanged = await db.authState
      #expect(unchanged == .guest(guest))

      let user = try await db.signInWithMagicCode(email: "alice@example.com", code: code)
      #expect(user.id == guest.id, "the guest is upgraded in place")
      #expect(user.email == "alice@example.com")
      #expect(!user.isGuest)
      #expect(user.refreshToken != guest.refreshToken)
      let state = await db.authState
      #expect(state == .signedIn(user))
      // A code works once.
      await #expect(throws: InstantClientError.self) { try await db.signInWithMagicCode(email: "alice@example.com", code: code) }
    }
  }

  @Test("The token file is owner-only, survives a restart, and a revoked token signs out")
  func tokenFile() async throws {
    try await withServer(expectingErrors: ["the server no longer knows the signed-in user; signing out"]) { server in
      let folder = temporaryDirectory()
      let storage = InstantStorage.sqlite(folder.appendingPathComponent("app.sqlite"))
      let first = server.client(storage: storage)
      let user = try await first.signInAsGuest()
      await first.shutdown()

      let path = folder.appendingPathComponent("app.sqlite.user.json").path
      #if canImport(Security)
        // Apple platforms keep the user in the Keychain, under the database's path.
        let stored = try #require(try Keychain.read(account: path))
        #expect(String(decoding: stored, as: UTF8.self).contains(user.refreshToken))
        #expect(!FileManager.default.fileExists(atPath: path))
      #else
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue
        #expect(permissions == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(user.refreshToken))
      #endif

      let second = server.client(storage: storage)
      let restored = await second.authState
      #expect(restored == .guest(user))
      try await eventually("connected with the stored token") { await second.status == .authenticated }
      await second.verifyStoredUser()
      let verified = await second.authState
      #expect(verified == .guest(user))
      // Revoked behind the client's back (another device signed out with the same token).
      try await second.authAPI.signOut(user.refreshToken)
      await second.reconnectNow()
      let states = Watching(second.authStateUpdates())
      try await waitFor(states, "signed out by the server's init error") { $0 == .signedOut }
      try await eventually("reconnected anonymously") { await second.status == .authenticated }
      #expect(!FileManager.default.fileExists(atPath: path))
      #if canImport(Security)
        #expect(try Keychain.read(account: path) == nil, "signing out deletes the Keychain item")
      #endif
      await second.shutdown()
    }
  }

  @Test("No token in any log line at debug level, nor in a user's description")
  func noTokenInLogs() async throws {
    try await withServer { server in
      let lines = Locked<[String]>([])
      let db = InstantClient(
        appId: LocalServer.appID, apiURI: URL(string: "http://127.0.0.1:\(server.port)")!,
        websocketURI: URL(string: "ws://127.0.0.1:\(server.port)/runtime/session")!, storage: .memory,
        logger: CapturingLogHandler.logger(lines))
      defer { Task { await db.shutdown() } }
      let user = try await db.signInAsGuest()
      try await eventually("connected as the guest") { await db.status == .authenticated }
      try await db.authAPI.signOut(user.refreshToken)  // revoked: the server's init error echoes the token
      await db.reconnectNow()
      try await eventually("signed out") { await db.authState == .signedOut }
      try await eventually("reconnected") { await db.status == .authenticated }
      let all = lines.withLock { $0 }
      #expect(all.contains { $0.contains("\"op\":\"init\"") }, "debug lines were captured")
      #expect(all.contains { $0.contains("<redacted>") })
      #expect(!all.contains { $0.contains(user.refreshToken) })
      #expect(!"\(user)".contains(user.refreshToken))
      #expect(!String(reflecting: user).contains(user.refreshToken))
      var dumped = ""
      dump(user, to: &dumped)
      #expect(!dumped.contains(user.refreshToken))
    }
  }

  @Test("A user change drops cached results and rejects unconfirmed writes visibly, never silently")
  func userChangeAndPendingWrites() async throws {
    try await withServer(expectingErrors: ["1 unconfirmed writes rejected: the signed-in user changed"]) { server in
      let db = server.client()
      defer { Task { await db.shutdown() } }
      try await eventually("connected") { await db.status == .authenticated }
      let rejections = Watching(db.rejectedWrites())
      await db.setNetworkAvailable(false)
      let write = try await db.transact(.update("notes", .id(InstantID.make()), ["v": 1]))
      try await db.signInAsGuest()
      await #expect(throws: InstantClientError.self) { try await write.synced() }
      try await eventually("the rejection is reported") { rejections.values.count == 1 }
      #expect(rejections.values.first?.error.kind == .userChanged)
      #expect(await db.pendingWrites.isEmpty)
    }
  }
}
