import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

@Suite("init")
struct InitTests {
  @Test func initOkCarriesSessionAttrsAndAuth() async throws {
    try await withInstantLocal { server in
      let (session, reply) = try await server.connect()
      #expect(reply["op"] == "init-ok")
      #expect(reply["session-id"]?.stringValue?.count == 36)
      #expect(reply["auth"]?["user"] == .null)
      #expect(reply["auth"]?["admin?"] == false)
      #expect(reply["app-status"] == ["status": "active"])
      let attrs = reply["attrs"]?.arrayValue ?? []
      let usersID = attrs.first { $0["id"] == "96653230-13ff-ffff-a4b4-81ffffffffff" }
      #expect(usersID?["forward-identity"]?[1] == "$users")
      #expect(usersID?["forward-identity"]?[0] == "96653231-03ff-ffff-a4b4-81ffffffffff")
      #expect(usersID?["catalog"] == "system")
      #expect(attrs.contains { $0["id"] == "96653230-13ff-ffff-2a35-48afffffffff" })
      #expect(attrs.count == SystemCatalog.attrs.count)
      await session.close()
    }
  }

  @Test func anyWellFormedAppIDIsAcceptedAndIsolated() async throws {
    try await withInstantLocal { server in
      let otherApp = newID()
      let (a, _) = try await server.connect()
      let (b, initB) = try await server.connect(appID: otherApp.uppercased())
      #expect(initB["op"] == "init-ok")
      let attr = newID()
      let entity = newID()
      let ok = try await a.request(transact([blobAttr(attr, "notes", "id", unique: true)] + createEntity(entity, idAttr: attr)))
      #expect(ok["op"] == "transact-ok")
      let result = try await b.request(["op": "add-query", "q": ["notes": [:]]])
      #expect(triples(result["result"]).isEmpty)
      await a.close()
      await b.close()
    }
  }

  @Test func initErrorsMatchTheReference() async throws {
    try await withInstantLocal { server in
      let session = TestSession(port: try await server.boundPort)

      let early = try await session.request(["op": "add-query", "q": ["goals": [:]]])
      #expect(early["op"] == "error")
      #expect(early["status"] == 400)
      #expect(early["type"] == "validation-failed")
      #expect(early["message"] == "Validation failed for init: `init` has not run for this session.")
      #expect(early["hint"]?["data-type"] == "init")
      #expect(early["original-event"]?["op"] == "add-query")

      let missing = try await session.request(["op": "init"])
      #expect(missing["type"] == "param-missing")
      #expect(missing["hint"]?["in"] == ["app-id"])

      let malformed = try await session.request(["op": "init", "app-id": "not-a-uuid"])
      #expect(malformed["type"] == "param-malformed")

      let badToken = try await session.request(["op": "init", "app-id": .string(TestSession.appID), "refresh-token": .string(newID())])
      #expect(badToken["type"] == "record-not-found")
      #expect(badToken["hint"]?["record-type"] == "app-user")
      #expect(badToken["original-event"]?["op"] == "init")

      let ok = try await session.request(["op": "init", "app-id": .string(TestSession.appID)])
      #expect(ok["op"] == "init-ok")
      let again = try await session.request(["op": "init", "app-id": .string(TestSession.appID)])
      #expect(again["type"] == "validation-failed")
      #expect(again["message"] == "Validation failed for init: `init` has already run for this session.")
      // A token in the refused init is not echoed back in the error (which clients log).
      let token = newID()
      let withToken = try await session.request(["op": "init", "app-id": .string(TestSession.appID), "refresh-token": .string(token)])
      #expect(withToken["type"] == "validation-failed")
      #expect(withToken["hint"]?["input"]?["app-id"] == .string(TestSession.appID))
      #expect(!withToken.serialized().contains(token))
      await session.close()
    }
  }

  /// Two pings pass while the session idles. (A pong has one ping interval to arrive; with the
  /// other suites — the chaos run's subprocesses among them — on two cores, 700 ms and then
  /// 1.5 s were sometimes too short, so the interval is 3 s.)
  @Test func pingsKeepAHealthySessionOpen() async throws {
    try await withInstantLocal(configuration: .init(port: 0, storage: .memory, pingInterval: .seconds(3))) { server in
      let (s, _) = try await server.connect()
      try await Task.sleep(for: .milliseconds(6_500))
      let ok = try await s.request(["op": "add-query", "q": ["goals": [:]]])
      #expect(ok["op"] == "add-query-ok")
      #expect(await s.mailbox.closed == false)
      await s.close()
    }
  }
}
