import Foundation
import InstantCore
@testable import InstantLocal
import InstantLocalTesting
import NIOConcurrencyHelpers
import TestSupport
import Testing
internal import OrderedCollections

/// ``ServerLimits`` (docs/instant-local.md, "Limits"): the buckets on a clock the test moves, then
/// each limit against a real server on loopback — sign-ins answered 429 with `Retry-After`, a
/// connection over a cap closed with 1013, transactions over the rate slowed and every one kept.
@Suite("Limits")
struct LimitsTests {
  /// A clock the test moves by hand.
  final class ManualClock: Sendable {
    private let seconds = NIOLockedValueBox(0.0)
    func advance(_ by: Double) { seconds.withLockedValue { $0 += by } }
    var now: @Sendable () -> Double { { [seconds] in seconds.withLockedValue { $0 } } }
  }

  @Test("A bucket gives its burst, then refuses with the wait until its next token, and refills")
  func bucketTakes() {
    let clock = ManualClock()
    let buckets = TokenBuckets(capacity: 3, per: .seconds(60), now: clock.now)
    #expect((0..<3).allSatisfy { _ in buckets.take("a") == nil })
    #expect(buckets.take("a") == .seconds(20))
    #expect(buckets.take("b") == nil, "each key has its own bucket")
    clock.advance(19)
    #expect(buckets.take("a") != nil)
    clock.advance(1)
    #expect(buckets.take("a") == nil)
    #expect(buckets.take("a") != nil)
    clock.advance(3_600)
    #expect((0..<3).allSatisfy { _ in buckets.take("a") == nil }, "a full bucket holds no more than its capacity")
    #expect(buckets.take("a") != nil)
  }

  @Test("Reservations queue: each caller past the burst waits one interval longer than the last")
  func bucketReserves() {
    let clock = ManualClock()
    let buckets = TokenBuckets(capacity: 10, per: .seconds(1), now: clock.now)
    let waits = (0..<30).map { _ in buckets.reserve("ip") }
    #expect(waits.prefix(10).allSatisfy { $0 == .zero })
    // The 30th waits for 20 tokens at 10 a second.
    #expect(abs(waits[29].seconds - 2.0) < 1e-9, "\(waits[29])")
    #expect(zip(waits.dropFirst(10), waits.dropFirst(11)).allSatisfy { $0 < $1 })
    clock.advance(2)
    #expect(buckets.reserve("ip") == .milliseconds(100), "the debt is paid off at the rate, not forgiven")
  }

  @Test("Buckets for many keys are pruned once full again, so memory follows active keys")
  func bucketsPrune() {
    let clock = ManualClock()
    let buckets = TokenBuckets(capacity: 1, per: .seconds(1), now: clock.now)
    for index in 0..<TokenBuckets.pruneThreshold { _ = buckets.take("address-\(index)") }
    #expect(buckets.count == TokenBuckets.pruneThreshold)
    clock.advance(1)
    _ = buckets.take("one-more")
    #expect(buckets.count == 1, "the refilled buckets went, the new one stayed")
  }

  @Test("X-Forwarded-For is believed only from a trusted proxy, and only its right end")
  func forwardedFor() {
    let direct = ClientAddresses()
    #expect(direct.client(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"]) == "203.0.113.9")
    let proxied = ClientAddresses(trustedProxies: ["127.0.0.1", "10.0.0.2"])
    #expect(proxied.client(peer: "127.0.0.1", forwardedFor: ["198.51.100.1"]) == "198.51.100.1")
    #expect(proxied.client(peer: "::ffff:127.0.0.1", forwardedFor: ["198.51.100.1"]) == "198.51.100.1")
    // A client that writes its own header gets its address appended by the proxy: the right end.
    #expect(proxied.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 198.51.100.1"]) == "198.51.100.1")
    #expect(proxied.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "198.51.100.1, 10.0.0.2"]) == "198.51.100.1")
    #expect(proxied.client(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
    #expect(proxied.client(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"]) == "203.0.113.9")
  }

  @Test("Connection slots taken concurrently never overshoot their caps")
  func slotsUnderContention() async {
    let slots = ConnectionSlots(total: 25, perAddress: 10)
    let admitted = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<200 { group.addTask { slots.open("address-\(index % 4)") == nil } }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(admitted == 25)
    #expect(slots.openCount == 25)
    for index in 0..<4 { slots.close("address-\(index)") }
    #expect(slots.openCount == 21)
    #expect(slots.open("address-0") == nil)
  }

  /// A server with `limits`; its clock (``ServerClock``) stands still unless `realTime`, so a slow
  /// machine cannot refill a bucket mid-test.
  static func configuration(_ limits: ServerLimits, trustedProxies: Set<String> = [], realTime: Bool = false)
    -> InstantLocalConfiguration
  {
    var configuration = InstantLocalConfiguration.testing()
    configuration.limits = limits
    configuration.trustedProxies = trustedProxies
    if !realTime { configuration.clock = ServerClock(TestSupport.ManualClock(), wallTimeAtStart: Date()) }
    return configuration
  }

  static func signInGuest(_ server: InstantLocalServer, appID: String = TestSession.appID, forwardedFor: String? = nil) async throws
    -> FileHTTP.Answer
  {
    let base = try #require(await server.baseURL)
    var headers = ["content-type": "application/json"]
    if let forwardedFor { headers["x-forwarded-for"] = forwardedFor }
    return try await FileHTTP.send(
      "POST", base.appendingPathComponent("runtime/auth/sign_in_guest"), headers: headers,
      body: Data((["app-id": .string(appID)] as JSON).serialized().utf8))
  }

  @Test("Sign-ins past an address's minute are 429 rate-limited with Retry-After; another address is not held up")
  func signInsPerAddress() async throws {
    try await withInstantLocal(configuration: Self.configuration(ServerLimits(signInsPerIPPerMinute: 3), trustedProxies: ["127.0.0.1"])) {
      server in
      for _ in 0..<3 { #expect(try await Self.signInGuest(server, forwardedFor: "198.51.100.1").status == 200) }
      let refused = try await Self.signInGuest(server, forwardedFor: "198.51.100.1")
      #expect(refused.status == 429)
      #expect(refused.json["type"] == "rate-limited")
      let retryAfter = try #require(refused.headers["retry-after"].flatMap(Int.init))
      #expect((1...20).contains(retryAfter), "a token comes back every 20 s")
      // The magic-code routes count against the same minute.
      let code = try await server.sendMagicCode(email: "ann@example.com")
      #expect(code.0 == 200, "the test's own address (127.0.0.1, no header) has its own minute")
      #expect(try await Self.signInGuest(server, forwardedFor: "198.51.100.2").status == 200)
      // A spoofed address left of the proxy's entry does not get a fresh budget.
      #expect(try await Self.signInGuest(server, forwardedFor: "9.9.9.9, 198.51.100.1").status == 429)
    }
  }

  @Test("Without a trusted proxy, X-Forwarded-For does not buy a fresh budget")
  func headerFromUntrustedPeerIgnored() async throws {
    try await withInstantLocal(configuration: Self.configuration(ServerLimits(signInsPerIPPerMinute: 2))) { (server: InstantLocalServer) async throws in
      for index in 0..<2 { #expect(try await Self.signInGuest(server, forwardedFor: "198.51.100.\(index)").status == 200) }
      #expect(try await Self.signInGuest(server, forwardedFor: "198.51.100.77").status == 429)
    }
  }

  @Test("An app's sign-ins are limited across addresses; a refused one does not use the address's budget")
  func signInsPerApp() async throws {
    let limits = ServerLimits(signInsPerIPPerMinute: 2, signInsPerAppPerMinute: 3)
    try await withInstantLocal(configuration: Self.configuration(limits, trustedProxies: ["127.0.0.1"])) { server in
      for index in 0..<3 { #expect(try await Self.signInGuest(server, forwardedFor: "198.51.100.\(index)").status == 200) }
      let refused = try await Self.signInGuest(server, forwardedFor: "198.51.100.9")
      #expect(refused.status == 429)
      #expect(refused.json["message"]?.stringValue?.contains("this app") == true)
      let other = "7d2c3b8a-5f7e-4c1d-9a0b-2e4f6a8c0d1e"
      #expect(try await Self.signInGuest(server, appID: other, forwardedFor: "198.51.100.9").status == 200)
      #expect(try await Self.signInGuest(server, appID: other, forwardedFor: "198.51.100.9").status == 200)
    }
  }

  /// Opens a raw WebSocket and answers the first frame the server sends: the close code and reason
  /// when it closes, `nil` when it sends something else (or nothing, until the suite's backstop).
  static func closeFrame(port: Int) async throws -> (code: Int, reason: String)? {
    try await RawConnection.with(port: port) { session in
      guard await session.upgrade(port: port) else { return nil }
      guard let frame = await session.readFrame(), frame.opcode == 0x8, frame.payload.count >= 2 else { return nil }
      return (Int(frame.payload[0]) << 8 | Int(frame.payload[1]), String(decoding: frame.payload.dropFirst(2), as: UTF8.self))
    }
  }

  @Test("A connection past the per-address cap is closed with 1013 and why; a slot freed admits the next")
  func connectionCap() async throws {
    try await withInstantLocal(configuration: Self.configuration(ServerLimits(maxConnectionsPerIP: 2))) { server in
      let (first, _) = try await server.connect()
      let (second, _) = try await server.connect()
      let port = try await server.boundPort
      let refused = try #require(try await Self.closeFrame(port: port))
      #expect(refused.code == 1013)
      #expect(refused.reason.contains("too many connections from your address (at most 2)"))
      await first.close()
      // The slot comes back once the server has seen the close: poll, as a reconnecting client would.
      var third: TestSession?
      for _ in 0..<100 where third == nil {
        if let (session, reply) = try? await server.connect(), reply["op"] == "init-ok" {
          third = session
        } else {
          try await Task.sleep(for: .milliseconds(50))
        }
      }
      let admitted = try #require(third, "a freed slot admits a new connection")
      await admitted.close()
      await second.close()
    }
  }

  @Test("The server-wide cap counts every address")
  func serverCap() async throws {
    try await withInstantLocal(configuration: Self.configuration(ServerLimits(maxConnections: 1))) { server in
      let (first, reply) = try await server.connect()
      #expect(reply["op"] == "init-ok")
      let port = try await server.boundPort
      let refused = try #require(try await Self.closeFrame(port: port))
      #expect(refused.code == 1013)
      #expect(refused.reason.contains("the server has its most connections open (1)"))
      await first.close()
    }
  }

  @Test("Transactions past the rate are slowed, never refused: a burst of 60 at 20 a second all commit, over 2 s at least")
  func transactionsSlowed() async throws {
    let limits = ServerLimits(transactionsPerIPPerSecond: 20)
    try await withInstantLocal(configuration: Self.configuration(limits, realTime: true)) { server in
      let (session, _) = try await server.connect()
      let (todosID, titleID) = (newID(), newID())
      let schema = [blobAttr(todosID, "todos", "id", unique: true, indexed: true), blobAttr(titleID, "todos", "title")]
      // The first uses one token; the burst then has 19 more before it waits.
      #expect(try await session.request(["op": "transact", "tx-steps": .array(schema)])["op"] == "transact-ok")
      let started = ContinuousClock.now
      let ids = (0..<60).map { _ in UUID().uuidString.lowercased() }
      for (index, id) in ids.enumerated() {
        let steps = createEntity(newID(), idAttr: todosID, [titleID: .string("todo \(index)")])
        session.send(["op": "transact", "tx-steps": .array(steps), "client-event-id": .string(id)])
      }
      var pending = Set(ids)
      while !pending.isEmpty {
        let reply = try await session.next { $0["op"] == "transact-ok" || $0["op"] == "error" }
        #expect(reply["op"] == "transact-ok", "\(reply)")
        if let id = reply["client-event-id"]?.stringValue { pending.remove(id) }
      }
      let elapsed = ContinuousClock.now - started
      // 60 transactions, 19 tokens left: 41 wait for tokens at 20 a second.
      #expect(elapsed >= .milliseconds(2_000), "\(elapsed)")
      await session.close()
    }
  }
}
