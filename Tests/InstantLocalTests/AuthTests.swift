import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

@Suite("auth endpoints")
struct AuthTests {
  let app = TestSession.appID

  @Test func guestSignInAndSocketInit() async throws {
    try await withInstantLocal { server in
      let (status, body) = try await server.signInGuest()
      #expect(status == 200)
      let user = try #require(body["user"])
      #expect(user["type"] == "guest")
      #expect(user["isGuest"] == true)
      #expect(user["app_id"] == .string(app))
      #expect(user["created_at"]?.stringValue != nil)
      let token = try #require(user["refresh_token"]?.stringValue)

      let (s, reply) = try await server.connect(refreshToken: token)
      #expect(reply["op"] == "init-ok")
      #expect(reply["auth"]?["user"]?["id"] == user["id"])
      let users = try await s.request(["op": "add-query", "q": ["$users": [:]]])
      #expect(triples(users["result"]).contains { $0[0] == user["id"] && $0[1] == .string(SystemCatalog.usersType) })

      let (verifyStatus, verified) = try await server.http(
        "POST", "/runtime/auth/verify_refresh_token", body: ["app-id": .string(app), "refresh-token": .string(token)])
      #expect(verifyStatus == 200)
      #expect(verified["user"]?["refresh_token"] == .string(token))

      let signOut: JSON = ["app_id": .string(app), "refresh_token": .string(token)]
      let (outStatus, out) = try await server.http("POST", "/runtime/signout", body: signOut)
      #expect(outStatus == 200)
      #expect(out == [:])
      let (after, rejected) = try await server.connect(refreshToken: token)
      #expect(rejected["op"] == "error")
      #expect(rejected["type"] == "record-not-found")
      #expect(rejected["hint"]?["record-type"] == "app-user")
      await s.close()
      await after.close()
    }
  }

  @Test func magicCodeSignInUpgradesAGuest() async throws {
    try await withInstantLocal { server in
      let (_, guestBody) = try await server.signInGuest()
      let guest = try #require(guestBody["user"])

      let (sendStatus, sent) = try await server.sendMagicCode(email: "Alice@Example.com")
      #expect(sendStatus == 200)
      #expect(sent == ["sent": true])
      let code = try #require(await server.lastMagicCode(appID: app, email: "alice@example.com"))
      #expect(code.count == 6)

      let (wrongStatus, wrong) = try await server.verifyMagicCode(email: "alice@example.com", code: "nope")
      #expect(wrongStatus == 400)
      #expect(wrong["type"] == "record-not-found")
      #expect(wrong["hint"]?["record-type"] == "app-user-magic-code")

      let (status, body) = try await server.verifyMagicCode(
        email: "alice@example.com", code: code, refreshToken: guest["refresh_token"])
      #expect(status == 200)
      #expect(body["created"] == true)
      #expect(body["user"]?["id"] == guest["id"], "the guest is upgraded in place")
      #expect(body["user"]?["email"] == "alice@example.com")
      #expect(body["user"]?["type"] == "user")
      #expect(body["user"]?["isGuest"] == false)
      #expect(body["user"]?["refresh_token"] != guest["refresh_token"])

      // The code is single-use.
      let (reuseStatus, _) = try await server.verifyMagicCode(email: "alice@example.com", code: code)
      #expect(reuseStatus == 400)

      // Signing in again finds the same user.
      _ = try await server.sendMagicCode(email: "alice@example.com")
      let code2 = try #require(await server.lastMagicCode(appID: app, email: "alice@example.com"))
      let (_, again) = try await server.verifyMagicCode(email: "alice@example.com", code: code2)
      #expect(again["created"] == false)
      #expect(again["user"]?["id"] == guest["id"])
    }
  }

  @Test func httpErrorsAreReferenceShaped() async throws {
    try await withInstantLocal { server in
      let (s1, missing) = try await server.http("POST", "/runtime/auth/send_magic_code", body: ["app-id": .string(app)])
      #expect(s1 == 400)
      #expect(missing["type"] == "param-missing")
      #expect(missing["hint"]?["in"] == ["email"])
      let (s2, malformed) = try await server.http("POST", "/runtime/auth/sign_in_guest", body: ["app-id": "nope"])
      #expect(s2 == 400)
      #expect(malformed["type"] == "param-malformed")
      let (s3, unknown) = try await server.http(
        "POST", "/runtime/auth/verify_refresh_token", body: ["app-id": .string(app), "refresh-token": .string(newID())])
      #expect(s3 == 400)
      #expect(unknown["hint"]?["record-type"] == "app-user")
    }
  }

  @Test func schemaPullHasTheReferenceShape() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      _ = try await s.request([
        "op": "transact",
        "tx-steps": [
          blobAttr(newID(), "goals", "id", unique: true), blobAttr(newID(), "goals", "title"),
          refAttr(newID(), "goals", "todos", "todos", "goals"),
        ],
      ])
      let (status, body) = try await server.http("GET", "/dash/apps/\(app)/schema/pull")
      #expect(status == 200)
      #expect(body["app-title"]?.stringValue != nil)
      #expect(body["schema"]?["blobs"]?["goals"]?["title"]?["value-type"] == "blob")
      #expect(body["schema"]?["blobs"]?["$users"]?["email"] != nil)
      #expect(body["schema"]?["refs"]?[#"["goals" "todos" "todos" "goals"]"#]?["value-type"] == "ref")
      #expect((body["attrs"]?.arrayValue?.count ?? 0) == SystemCatalog.attrs.count + 3)
      let (health, ok) = try await server.http("GET", "/health")
      #expect(health == 200)
      #expect(ok == ["status": "ok"])
      await s.close()
    }
  }
}
