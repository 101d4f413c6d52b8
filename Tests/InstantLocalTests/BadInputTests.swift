import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

@Suite("bad input")
struct BadInputTests {
  /// After each bad message the session must still answer a query.
  func assertUsable(_ s: TestSession) async throws {
    let ok = try await s.request(["op": "add-query", "q": ["probe": ["$": ["where": ["n": .string(newID())]]]]])
    #expect(ok["op"] == "add-query-ok")
  }

  @Test func malformedJSONGetsAnErrorAndTheSessionStays() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      s.sendRaw("{\"op\": \"add-query\", \"q\": ")
      let error = try await s.next(op: "error")
      #expect(error["status"] == 400)
      #expect(error["type"] == "param-malformed")
      #expect(error["client-event-id"] == .null)
      s.sendRaw(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
      let tooDeep = try await s.next(op: "error")
      #expect(tooDeep["type"] == "param-malformed")
      s.sendRaw("")
      _ = try await s.next(op: "error")
      s.sendRaw("[1, 2, 3]")
      let notObject = try await s.next(op: "error")
      #expect(notObject["message"] == "Invalid op")
      try await assertUsable(s)
      await s.close()
    }
  }

  @Test func unknownOpIsInvalidOp() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let error = try await s.request(["op": "make-coffee"])
      #expect(error["type"] == "param-malformed")
      #expect(error["message"] == "Invalid op")
      #expect(error["hint"] == ["op": "make-coffee"])
      #expect(error["original-event"]?["op"] == "make-coffee")
      let noOp = try await s.request(["q": [:]])
      #expect(noOp["message"] == "Invalid op")
      try await assertUsable(s)
      await s.close()
    }
  }

  @Test func wrongFieldTypes() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let nullQuery = try await s.request(["op": "add-query"])
      #expect(nullQuery["type"] == "validation-failed")
      #expect(nullQuery["message"] == "Validation failed for add-query: Query can not be null.")
      let stringQuery = try await s.request(["op": "add-query", "q": "goals"])
      #expect(stringQuery["type"] == "validation-failed")
      #expect(stringQuery["original-event"]?["q"] == "goals")
      let stepsObject = try await s.request(["op": "transact", "tx-steps": ["add-triple": 1]])
      #expect(stepsObject["type"] == "validation-failed")
      #expect(stepsObject["hint"]?["data-type"] == "tx-steps")
      let badStep = try await s.request(["op": "transact", "tx-steps": [42]])
      #expect(badStep["op"] == "error")
      let unknownAction = try await s.request(["op": "transact", "tx-steps": [["explode-triple", .string(newID()), .string(newID()), 1]]])
      #expect(unknownAction["op"] == "error")
      let unknownAttr = try await s.request(["op": "transact", "tx-steps": [["add-triple", .string(newID()), .string(newID()), 1]]])
      #expect(unknownAttr["op"] == "error")
      #expect(unknownAttr["status"] == 400)
      try await assertUsable(s)
      await s.close()
    }
  }

  @Test func unknownNamespacesGiveEmptyResultsThatFillLater() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let q: JSON = ["ghosts": [:]]
      let empty = try await s.request(["op": "add-query", "q": q])
      #expect(empty["op"] == "add-query-ok")
      #expect(triples(empty["result"]).isEmpty)
      let idAttr = newID()
      let g = newID()
      _ = try await s.request(transact([blobAttr(idAttr, "ghosts", "id", unique: true)] + createEntity(g, idAttr: idAttr)))
      let refresh = try await s.next(op: "refresh-ok")
      #expect(triples(refresh["computations"]?[0]?["instaql-result"]).contains { $0[0] == .string(g) })
      await s.close()
    }
  }

  @Test func oversizedMessageGetsAnError() async throws {
    try await withInstantLocal(configuration: .init(port: 0, storage: .memory, maxMessageBytes: 4096)) { server in
      let (s, _) = try await server.connect()
      let big = String(repeating: "x", count: 6000)
      s.send(["op": "transact", "client-event-id": "big", "tx-steps": [["add-triple", .string(newID()), .string(newID()), .string(big)]]])
      let error = try await s.next(op: "error")
      #expect(error["status"] == 400)
      #expect(error["message"]?.stringValue?.contains("limit is 4096") == true)
      #expect(error["client-event-id"] == "big", "the error names the write, so the client can refuse it")
      try await assertUsable(s)
      await s.close()
    }
  }

  @Test("A frame that is not JSON gets an error naming its client-event-id when the text has one")
  func malformedFrameNamesItsEvent() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      s.sendRaw(#"{"op": "transact", "client-event-id" : "cut-1", "tx-steps": [["add-triple", "#)
      let named = try await s.next(op: "error")
      #expect(named["client-event-id"] == "cut-1")
      s.sendRaw(#"{"op": "transact", "tx-steps": [["#)
      let unnamed = try await s.next(op: "error")
      #expect(unnamed["client-event-id"] == .null)
      try await assertUsable(s)
      await s.close()
    }
  }

  @Test func framesBeyondTheTransportLimitCloseOnlyThatSession() async throws {
    try await withInstantLocal(configuration: .init(port: 0, storage: .memory, maxMessageBytes: 4096)) { server in
      let (s, _) = try await server.connect()
      s.sendRaw(String(repeating: " ", count: 64 * 1024))
      let next = await s.collect(for: .milliseconds(500))
      #expect(next.allSatisfy { $0["op"] == "error" })
      await s.close()
      let (fresh, reply) = try await server.connect()
      #expect(reply["op"] == "init-ok")
      try await assertUsable(fresh)
      await fresh.close()
    }
  }

  @Test func closingMidRequestDoesNotHurtTheServer() async throws {
    try await withInstantLocal { server in
      for _ in 0..<5 {
        let s = TestSession(port: try await server.boundPort)
        s.send(["op": "init", "app-id": .string(TestSession.appID), "client-event-id": "x"])
        s.send(["op": "join-room", "room-id": "r", "client-event-id": "y"])
        await s.close()
      }
      let (ok, reply) = try await server.connect()
      #expect(reply["op"] == "init-ok")
      try await assertUsable(ok)
      await ok.close()
    }
  }
}
