import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import Logging
import TestSupport
import Testing

/// Permission rules over the wire: what sessions see and what they may write, as a hosted app
/// would answer them (the engine's cases are in InstantPermissionsTests).
@Suite("permissions over the wire", .timeLimit(.minutes(10)))
struct PermissionTests {
  let todosID = newID()
  let todosTitle = newID()
  let todosCreator = newID()

  /// `todos` whose owner alone may see and change them; anyone signed in may create their own.
  static let ownerRules: JSON = [
    "todos": [
      "allow": ["view": "isOwner", "create": "isOwner", "update": "isOwner && auth.id == newData.creatorId", "delete": "isOwner"],
      "bind": ["isOwner", "auth.id != null && auth.id == data.creatorId"],
    ]
  ]

  func schema() -> [JSON] {
    [blobAttr(todosID, "todos", "id", unique: true, indexed: true), blobAttr(todosTitle, "todos", "title"), blobAttr(todosCreator, "todos", "creatorId")]
  }

  func todo(_ id: String, _ title: String, by user: JSON) -> [JSON] {
    createEntity(id, idAttr: todosID, [todosTitle: .string(title), todosCreator: user])
  }

  /// Signs in a guest and connects as them: the session and the user's id.
  func signedIn(_ server: InstantLocalServer) async throws -> (TestSession, JSON) {
    let (_, body) = try await server.signInGuest()
    let user = try #require(body["user"])
    let (session, reply) = try await server.connect(refreshToken: try #require(user["refresh_token"]?.stringValue))
    #expect(reply["op"] == "init-ok")
    return (session, try #require(user["id"]))
  }

  /// The todos of a `refresh-ok`'s first computation.
  func refreshIDs(_ refresh: JSON) -> Set<String> { ids(refresh["computations"]?[0] ?? .null, key: "instaql-result") }

  func ids(_ reply: JSON, key: String = "result") -> Set<String> {
    Set(triples(reply[key]).filter { $0[1] == .string(todosID) }.compactMap { $0[0]?.stringValue })
  }

  @Test func ownersSeeAndWriteOnlyTheirOwn() async throws {
    try await withInstantLocal { server in
      let (setup, _) = try await server.connect()
      #expect(try await setup.request(transact(schema()))["op"] == "transact-ok")
      try await server.setRules(Self.ownerRules)
      let (ada, adaID) = try await signedIn(server)
      let (bob, bobID) = try await signedIn(server)
      let adas = newID()
      let bobs = newID()
      #expect(try await ada.request(transact(todo(adas, "Ada's", by: adaID)))["op"] == "transact-ok")
      #expect(try await bob.request(transact(todo(bobs, "Bob's", by: bobID)))["op"] == "transact-ok")

      // Creating a todo for someone else is refused, with the reference's error, and leaves nothing.
      let forged = newID()
      let refused = try await bob.request(transact(todo(forged, "forged", by: adaID)))
      #expect(refused["op"] == "error")
      #expect(refused["type"] == "permission-denied")
      #expect(refused["status"] == 400)
      #expect(refused["message"] == "Permission denied: not perms-pass?")
      #expect(refused["hint"] == ["input": ["todos", "object"], "expected": "perms-pass?"])
      #expect(refused["client-event-id"] != nil)

      let q: JSON = ["todos": [:]]
      #expect(ids(try await ada.request(["op": "add-query", "q": q])) == [adas])
      #expect(ids(try await bob.request(["op": "add-query", "q": q])) == [bobs])
      let (guest, _) = try await server.connect()
      #expect(ids(try await guest.request(["op": "add-query", "q": q])).isEmpty)

      // Bob may not rename Ada's todo; Ada may.
      let rename = try await bob.request(transact([addTriple(adas, todosTitle, "Bob was here")]))
      #expect(rename["type"] == "permission-denied")
      let adaRename = try await ada.request(transact([addTriple(adas, todosTitle, "Ada's, renamed")]))
      #expect(adaRename["op"] == "transact-ok")
      // Ada's refresh shows it; Bob hears nothing of it.
      let refresh = try await ada.next(op: "refresh-ok")
      #expect(triples(refresh["computations"]?[0]?["instaql-result"]).contains { $0[0] == .string(adas) && $0[2] == "Ada's, renamed" })
      let bobHeard = await bob.collect(for: .milliseconds(300)).filter { $0["op"] == "refresh-ok" }
      #expect(bobHeard.allSatisfy { refreshIDs($0) == [bobs] }, "\(bobHeard)")
      for s in [setup, ada, bob, guest] { await s.close() }
    }
  }

  @Test func changedRulesRefreshSubscribedQueries() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      let a = newID()
      #expect(try await s.request(transact(schema() + todo(a, "public", by: "someone")))["op"] == "transact-ok")
      let first = try await s.request(["op": "add-query", "q": ["todos": [:]]])
      #expect(ids(first) == [a])
      try await server.setRules(["todos": ["allow": ["view": "false"]]])
      let hidden = try await s.next(op: "refresh-ok")
      #expect(refreshIDs(hidden).isEmpty)
      try await server.setRules(nil)
      let shown = try await s.next(op: "refresh-ok")
      #expect(refreshIDs(shown) == [a])
      await s.close()
    }
  }

  @Test func rulesThatDoNotCompileAreRefusedWithEveryProblem() async throws {
    try await withInstantLocal { server in
      await #expect(throws: InstantLocalError.self) {
        try await server.setRules(["todos": ["allow": ["view": "auth.id ==", "update": "newData.x"], "bind": ["a"]]])
      }
      do {
        try await server.setRules(["todos": ["allow": ["view": "newData.x == 1"]]])
        Issue.record("newData in a view rule was accepted")
      } catch {
        #expect("\(error)".contains("undeclared reference to 'newData'"))
        #expect("\(error)".contains("todos.allow.view"))
      }
    }
  }

  @Test func aRuleThatFailsToEvaluateRefusesTheWrite() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      #expect(try await s.request(transact(schema()))["op"] == "transact-ok")
      try await server.setRules(["todos": ["allow": ["create": "data.title.size() / 0 > 1"]]])
      let reply = try await s.request(transact(todo(newID(), "x", by: "nobody")))
      #expect(reply["type"] == "permission-evaluation-failed")
      #expect(reply["hint"]?["rule"] == ["todos", "create"])
      await s.close()
    }
  }

  @Test func aRulesFileIsReadAtStartAndReReadWhenItChanges() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perms-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("instant.perms.ts").path
    func write(_ text: String) throws { try text.write(toFile: file, atomically: true, encoding: .utf8) }
    try write(
      """
      import type { InstantRules } from "@instantdb/react";

      const rules = {
        todos: { allow: { view: "data.title != 'secret'" } },
      } satisfies InstantRules;

      export default rules;
      """)
    // The poll runs on the server's clock, which only the test moves; its log is read below.
    let clock = ManualClock()
    var configuration = InstantLocalConfiguration.testing()
    configuration.rulesFile = file
    configuration.rulesPollInterval = .seconds(1)
    configuration.clock = ServerClock(clock, wallTimeAtStart: Date())
    let log = Locked<[String]>([])
    var logger = CapturingLogHandler.logger(log)
    logger.logLevel = .error
    /// Lets the watcher poll once: it sleeps (beside the file sweep), the clock moves past its
    /// interval, and it sleeps again only once it has read the file.
    func poll() async {
      await clock.sleeping(atLeast: 2)
      clock.advance(by: .seconds(1))
      await clock.sleeping(atLeast: 2)
    }
    try await withInstantLocal(configuration: configuration, logger: logger) { server in
      let (s, _) = try await server.connect()
      let open = newID()
      let secret = newID()
      #expect(try await s.request(transact(schema() + todo(open, "open", by: "x") + todo(secret, "secret", by: "x")))["op"] == "transact-ok")
      #expect(ids(try await s.request(["op": "add-query", "q": ["todos": [:]]])) == [open])

      // A broken edit keeps the last good rules, and the log says why.
      try write("export default { todos: { allow: { view: \"data.title ==\" } } };")
      await poll()
      let logged = log.withLock { $0 }
      #expect(logged.count == 1 && logged[0].contains("error: todos.allow.view: unexpected end of input"), "\(logged)")
      let quiet = await s.collect(for: .milliseconds(100)).filter { $0["op"] == "refresh-ok" }
      #expect(quiet.isEmpty)
      #expect(ids(try await s.request(["op": "add-query", "q": ["todos": ["$": ["where": ["title": "open"]]]]])) == [open])

      // A good edit takes effect.
      try write("export default { todos: { allow: { view: \"true\" } } };")
      await poll()
      let refresh = try await s.next(op: "refresh-ok")
      #expect(refreshIDs(refresh) == [open, secret])
      await s.close()
    }
  }

  @Test func aServerDoesNotStartOnABrokenRulesFile() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("perms-\(UUID().uuidString).ts").path
    try "export default {\n  todos: { allow: { view: \"auth.id ==\" } },\n};\n".write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    var configuration = InstantLocalConfiguration.testing()
    configuration.rulesFile = file
    let server = try InstantLocalServer(configuration: configuration, logger: .instantLocalTesting)
    do {
      try await server.start()
      await server.stop()
      Issue.record("the server started on a broken rules file")
    } catch {
      // file:line:column of the rule's text: line 2, and the column inside the string.
      #expect(error.description.hasPrefix("\(file):2:"))
      #expect(error.description.contains("error: todos.allow.view:"))
    }
  }

  @Test func signUpRulesDecideWhoMayCreateAUser() async throws {
    try await withInstantLocal { server in
      try await server.setRules(["$users": ["allow": ["create": "data.email != null && data.email.endsWith('@allowed.com')"]]])
      _ = try await server.sendMagicCode(email: "eve@other.com")
      let code = try #require(await server.lastMagicCode(appID: TestSession.appID, email: "eve@other.com"))
      let (status, body) = try await server.verifyMagicCode(email: "eve@other.com", code: code)
      #expect(status == 400)
      #expect(body["type"] == "permission-denied")
      #expect(body["hint"]?["input"] == ["$users", "create"])
      // A refused sign-up does not use the code up.
      #expect(await server.lastMagicCode(appID: TestSession.appID, email: "eve@other.com") == code)

      _ = try await server.sendMagicCode(email: "ann@allowed.com")
      let annCode = try #require(await server.lastMagicCode(appID: TestSession.appID, email: "ann@allowed.com"))
      let (annStatus, ann) = try await server.verifyMagicCode(email: "ann@allowed.com", code: annCode)
      #expect(annStatus == 200)
      #expect(ann["created"] == true)

      let (guestStatus, guest) = try await server.signInGuest()
      #expect(guestStatus == 400)
      #expect(guest["type"] == "permission-denied")
    }
  }

  @Test func requestIPAndOriginComeFromTheSocket() async throws {
    try await withInstantLocal { server in
      let (s, _) = try await server.connect()
      #expect(try await s.request(transact(schema()))["op"] == "transact-ok")
      // The test's WebSocket client sends `Origin: <scheme>://127.0.0.1`.
      try await server.setRules(["todos": ["allow": ["create": "request.ip == '127.0.0.1' && request.origin.endsWith('://127.0.0.1')"]]])
      let local = try await s.request(transact(todo(newID(), "local", by: "x")))
      #expect(local["op"] == "transact-ok", "\(local)")
      try await server.setRules(["todos": ["allow": ["create": "request.ip == '10.0.0.1'"]]])
      #expect(try await s.request(transact(todo(newID(), "remote", by: "x")))["type"] == "permission-denied")
      await s.close()
    }
  }
}
