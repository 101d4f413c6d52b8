import Foundation
import InstantCore
@testable import InstantDB
import TestSupport
import Testing
internal import OrderedCollections

/// Errors keep what caused them, the public API throws `InstantClientError` by type, and server
/// errors are told apart by their wire `type` and `hint`, never by their message (issue 19).
@Suite("Typed client errors", .timeLimit(.minutes(10)))
struct ClientErrorTests {
  /// A transport that never connects: the client stays offline and writes stay local.
  struct NoNetwork: WebSocketTransport {
    func connect(to url: URL) async throws -> any WebSocketConnection {
      throw WebSocketTransportError("this test has no network")
    }
  }

  static func offlineClient() -> InstantClient {
    InstantClient(
      appId: LocalServer.appID, apiURI: URL(string: "http://127.0.0.1:9")!,
      websocketURI: URL(string: "ws://127.0.0.1:9/runtime/session")!, storage: .memory, transport: NoNetwork())
  }

  @Test("transact with ops InstaML refuses throws invalidOps, typed, with the InstaMLError kept")
  func invalidOpsKeepInstaMLError() async throws {
    let db = Self.offlineClient()
    defer { Task { await db.shutdown() } }
    // `let typed: InstantClientError = error` only compiles while transact throws it by type.
    do {
      try await db.transact(InstaMLOp(.update, "todos", "lookup__title", ["done": true]))
      Issue.record("a malformed lookup was accepted")
    } catch {
      let typed: InstantClientError = error
      #expect(typed.kind == .invalidOps)
      let instaml = try #require(typed.underlying as? InstaMLError)
      #expect(instaml.kind == .invalidLookup)
      #expect(typed.message == instaml.description)
    }
    #expect(await db.pendingWrites.isEmpty, "the refused write was not queued")
  }

  @Test("synced and queryOnce throw InstantClientError by type")
  func syncedAndQueryOnceAreTyped() async throws {
    let db = Self.offlineClient()
    let write = try await db.transact(.update("todos", .id(InstantID.make()), ["title": "kept"]))
    do {
      _ = try await db.queryOnce(["todos": [:]], timeout: .seconds(5))
      Issue.record("queryOnce answered without a server")
    } catch {
      let typed: InstantClientError = error
      #expect(typed.kind == .offline)
    }
    let waiting = Task { () async -> InstantClientError? in
      do throws(InstantClientError) {
        _ = try await write.synced()
        return nil
      } catch {
        return error
      }
    }
    try await eventually("the write is pending") { await db.pendingWrites.count == 1 }
    await db.shutdown()
    let error = await waiting.value
    #expect(error?.kind == .shutDown)
    // A wait that starts after shutdown ends too (it used to wait forever).
    do {
      _ = try await write.synced()
      Issue.record("synced() returned after shutdown")
    } catch {
      #expect(error.kind == .shutDown)
    }
  }

  @Test("An auth request that cannot reach the server is offline, with the URL error kept")
  func authKeepsNetworkError() async throws {
    let db = Self.offlineClient()
    defer { Task { await db.shutdown() } }
    do {
      try await db.signInAsGuest()
      Issue.record("signed in without a server")
    } catch {
      let typed: InstantClientError = error
      #expect(typed.kind == .offline)
      #expect(typed.underlying != nil)
      #expect(typed.underlying is URLError, "kept: \(String(describing: typed.underlying))")
    }
  }

  @Test("underlying is not part of ==")
  func underlyingOutOfEquality() {
    let a = InstantClientError(.storage, "disk full", underlying: URLError(.cannotWriteToFile))
    let b = InstantClientError(.storage, "disk full")
    #expect(a == b)
    #expect(a != InstantClientError(.storage, "disk gone"))
  }

  // MARK: Attr conflicts by type and hint

  static func frame(type: String, message: String, hint: JSON) -> ServerError {
    ServerError(frame: ["op": "error", "status": 400, "type": .string(type), "message": .string(message), "hint": hint])
  }

  @Test("An attr conflict is told by type and hint, whatever its message says")
  func attrConflictByTypeAndHint() {
    // The reference server: the `idents` unique index on (etype, label) is what the race hits.
    #expect(Self.frame(
      type: "record-not-unique", message: "`title` already exists on `todos`",
      hint: ["record-type": "ident", "etype": "todos", "label": "title"]).isAttrConflict)
    // The reference's `attrs` table, and instant-local's words with its hint.
    #expect(Self.frame(
      type: "record-not-unique", message: "Record not unique: attr", hint: ["record-type": "attr"]).isAttrConflict)
    #expect(Self.frame(
      type: "record-not-unique", message: "Another attribute for todos.title exists with different properties.",
      hint: ["record-type": "ident", "etype": "todos", "label": "title", "args": ["a-1"]]).isAttrConflict)
  }

  @Test("A message that reads like an attr conflict is not one without the type and hint")
  func attrConflictNotByMessage() {
    // The same attr id with other properties: rewriting to the server's ids cannot fix it.
    #expect(!Self.frame(
      type: "record-not-unique",
      message: "The attribute with id a-1 conflicts with an existing attribute with id a-1.", hint: [:]).isAttrConflict)
    #expect(!Self.frame(
      type: "sql-raise", message: "Another attribute for todos.title exists with different properties.",
      hint: ["condition": "raise-exception"]).isAttrConflict)
    // A unique value taken: the user's error, not a race.
    #expect(!Self.frame(
      type: "record-not-unique", message: "Another attribute for todos.email",
      hint: ["record-type": "triple", "attr": "a-2", "value": "x@example.com"]).isAttrConflict)
  }

  @Test("A write refused with the reference's ident conflict is retried with the server's attrs, not rolled back")
  func injectedReferenceConflictIsRetried() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let db = server.client(transport: transport)
      defer { Task { await db.shutdown() } }
      try await eventually("connected") { await db.status == .authenticated }
      // The first send is lost, and the reference's refusal for it arrives instead.
      transport.dropOutgoing.withLock { $0 = { text in text.contains("\"transact\"") } }
      let write = try await db.transact(.update("pets", .id(InstantID.make()), ["name": "Rex"]))
      try await eventually("the write went out") { transport.sent.contains { $0.contains(write.id) } }
      transport.dropOutgoing.withLock { $0 = { _ in false } }
      let refusal: JSON = [
        "op": "error", "status": 400, "client-event-id": .string(write.id),
        "original-event": ["op": "transact", "client-event-id": .string(write.id)],
        "type": "record-not-unique", "message": "`name` already exists on `pets`",
        "hint": ["record-type": "ident", "etype": "pets", "label": "name"],
      ]
      transport.inject(refusal.serialized())
      let txID = try await write.synced()
      #expect(txID > 0)
    }
  }

  @Test("Two clients creating the same attribute: instant-local refuses by type and hint, the write is retried")
  func attrRaceAgainstInstantLocal() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      // B records what it gets, and misses any refresh that would tell it of A's attr in time.
      let frames = Locked<[String]>([])
      transport.dropIncoming.withLock {
        $0 = { text in
          frames.withLock { $0.append(text) }
          return text.contains("\"refresh-ok\"")
        }
      }
      let a = server.client()
      let b = server.client(transport: transport)
      defer { Task { await a.shutdown(); await b.shutdown() } }
      try await eventually("both connected") {
        let (statusA, statusB) = (await a.status, await b.status)
        return statusA == .authenticated && statusB == .authenticated
      }
      // B subscribes to nothing and misses refreshes, so it writes before it hears of A's attr.
      try await a.transact(.update("pets", .id(InstantID.make()), ["name": "Rex"])).synced()
      let write = try await b.transact(.update("pets", .id(InstantID.make()), ["name": "Tom"]))
      _ = try await write.synced()
      // Frames may be batched into arrays; every one the client got parses (it skips any that do not).
      let messages = try frames.withLock { $0 }.flatMap { text throws in
        let frame = try JSON.parse(text)
        return frame.arrayValue ?? [frame]
      }
      let refusal = try #require(messages.first { $0["op"] == "error" }, "B's first send was refused")
      #expect(refusal["type"] == "record-not-unique")
      #expect(refusal["hint"]?["record-type"] == "ident")
      #expect(refusal["hint"]?["etype"] == "pets")
      // B's write creates pets.id and pets.name, both of which A created first.
      #expect(["id", "name"].contains(refusal["hint"]?["label"]?.stringValue ?? "none"))
      let names = try await a.queryOnce(["pets": [:]]).data["pets"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
      #expect(names?.sorted() == ["Rex", "Tom"])
    }
  }
}
