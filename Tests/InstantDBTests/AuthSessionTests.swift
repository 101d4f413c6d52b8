import InstantCore
import OrderedCollections
import Testing

@testable import InstantDB

/// ``AuthSession`` alone: what each auth event changes and asks the reactor to do.
@Suite struct AuthSessionTests {
  static func user(_ id: String, token: String, email: String? = nil, guest: Bool = false) -> AuthUser {
    var json: JSONObject = ["id": .string(id), "refresh_token": .string(token), "isGuest": .bool(guest)]
    if let email { json["email"] = .string(email) }
    return AuthUser(json: .object(json))!
  }

  @Test("The stored user is read once; a sign-in stores, publishes, forgets results, rejects unconfirmed writes and reconnects")
  func signIn() {
    var session = AuthSession()
    #expect(session.loaded(nil) == [.publish(.signedOut)])
    #expect(session.loaded(Self.user("u", token: "t")) == [], "read once")
    let ann = Self.user("u", token: "t", email: "ann@example.com")
    #expect(session.change(to: ann) == [
      .store(ann), .publish(.signedIn(ann)), .forgetResults, .rejectUnconfirmedWrites, .reconnect,
    ])
    #expect(session.change(to: ann) == [], "the same user again changes nothing")
    #expect(session.change(to: nil) == [.store(nil), .publish(.signedOut), .forgetResults, .rejectUnconfirmedWrites, .reconnect])
  }

  @Test("A guest upgraded in place keeps its id, so its unconfirmed writes are kept")
  func guestUpgrade() {
    var session = AuthSession()
    let guest = Self.user("g", token: "t1", guest: true)
    _ = session.loaded(guest)
    let upgraded = Self.user("g", token: "t2", email: "g@example.com")
    #expect(session.change(to: upgraded) == [.store(upgraded), .publish(.signedIn(upgraded)), .forgetResults, .reconnect])
  }

  @Test("init-ok's user refreshes the same user's fields, never a socket opened for the previous user")
  func initUser() {
    var session = AuthSession()
    let ann = Self.user("u", token: "t")
    _ = session.loaded(ann)
    let fresher: JSON = ["id": "u", "isGuest": false, "email": "ann@example.com"]
    #expect(session.initUser(fresher, initToken: "old-token") == [], "that socket spoke for another token")
    let actions = session.initUser(fresher, initToken: "t")
    let stored = Self.user("u", token: "t", email: "ann@example.com")
    #expect(actions == [.store(stored), .publish(.signedIn(stored))])
    #expect(session.initUser(fresher, initToken: "t") == [], "nothing new")
    #expect(session.verified(Self.user("other", token: "t")) == [], "another id is not a refresh")
  }

  @Test("Only an unknown app-user on init (or before authentication) signs out")
  func refusals() {
    let unknown = ServerError.recordNotFound("app-user")
    #expect(AuthSession.refusesUser(unknown, originalOp: .initialize, isAuthenticated: true))
    #expect(AuthSession.refusesUser(unknown, originalOp: nil, isAuthenticated: false))
    #expect(!AuthSession.refusesUser(unknown, originalOp: .transact, isAuthenticated: true))
    #expect(!AuthSession.refusesUser(.recordNotFound("app"), originalOp: .initialize, isAuthenticated: true))
  }
}
