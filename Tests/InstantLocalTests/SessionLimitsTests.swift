import Foundation
import InstantCore
import InstantLocal
import InstantLocalTesting
import Testing

@testable import InstantLocal

/// The limits that keep one bad peer from costing the server or the others (issue 11): a socket
/// that stops answering pings is closed, and a reader that stops reading is cut off once its
/// unread messages pass ``InstantLocalConfiguration/maxQueuedBytes``. Either way its session
/// ends as after a disconnect: its room forgets it.
// The limit catches a hang, not slowness: each test's own waits (40–50 s sockets, 30 s messages)
// end it first. Inside the whole suite on two cores the stalled reader has taken 97 s (1.4 s alone).
@Suite("Session limits", .timeLimit(.minutes(10)))
struct SessionLimitsTests {
  @Test("A socket that never answers a ping is closed with “Ping timeout”, and its room forgets it")
  func unansweredPings() async throws {
    // A pong has one interval to arrive: 3 s, so the healthy peer keeps its session on a busy
    // machine (1 s cut it off once while the whole suite ran).
    let configuration = InstantLocalConfiguration(port: 0, storage: .memory, pingInterval: .seconds(3))
    try await withInstantLocal(configuration: configuration) { server in
      let port = try await server.boundPort
      let (peer, _) = try await server.connect()
      _ = try await peer.request(["op": "join-room", "room-id": "r"])

      let (sessionID, pings, closeReason) = try await RawConnection.with(port: port) { raw in
        try #require(await raw.upgrade(port: port))
        #expect(await raw.sendFrame(["op": "init", "app-id": .string(TestSession.appID), "client-event-id": "i"]))
        #expect(await raw.sendFrame(["op": "join-room", "room-id": "r", "client-event-id": "j"]))
        var sessionID: String?
        var pings = 0
        while let frame = await raw.readFrame() {
          switch frame.opcode {
          case 0x1:
            let message = try JSON.parse(String(decoding: frame.payload, as: UTF8.self))
            if message["op"] == "init-ok" { sessionID = message["session-id"]?.stringValue }
          case 0x9: pings += 1  // never answered
          case 0x8: return (sessionID, pings, String(decoding: frame.payload.dropFirst(2), as: UTF8.self))
          default: break
          }
        }
        return (sessionID, pings, "")
      }
      let id = try #require(sessionID, "the raw session got init-ok")
      #expect(pings >= 1)
      #expect(closeReason == "Ping timeout", "closed by the server for the unanswered ping")

      // The peer saw the raw session in the room, and then saw it go.
      var members: JSON = .null
      while members[id] != nil || members == .null {
        let update = try await peer.next { $0["op"] == "refresh-presence" || $0["op"] == "patch-presence" }
        if update["op"] == "refresh-presence" { members = update["data"] ?? [:] } else {
          // A patch that removes the raw session says so with its id in the path.
          if update.serialized().contains(id), update.serialized().contains("\"-\"") { members = [:] }
        }
      }
      await peer.close()
    }
  }

  @Test("A reader that stops reading is cut off once its unread messages pass the bound; the writer and a watcher carry on")
  func stalledReader() async throws {
    // Pings every minute: the stalled reader must be cut off by the bound, not by a ping.
    let configuration = InstantLocalConfiguration(
      port: 0, storage: .memory, pingInterval: .seconds(60), maxQueuedBytes: 2 << 20)
    try await withInstantLocal(configuration: configuration) { server in
      let port = try await server.boundPort
      let (writer, _) = try await server.connect()
      let (idAttr, titleAttr) = (newID(), newID())
      #expect(try await writer.request(transact(
        [blobAttr(idAttr, "goals", "id", unique: true, indexed: true), blobAttr(titleAttr, "goals", "title")]))["op"] == "transact-ok")
      let (watcher, _) = try await server.connect()
      _ = try await watcher.request(["op": "join-room", "room-id": "r"])
      // The watcher reads ids only: its own refreshes stay small, well inside the bound.
      let ids: JSON = ["goals": ["$": ["fields": ["id"]]]]
      #expect(try await watcher.request(["op": "add-query", "q": ids])["op"] == "add-query-ok")

      try await RawConnection.with(port: port) { raw in
        try #require(await raw.upgrade(port: port))
        #expect(await raw.sendFrame(["op": "init", "app-id": .string(TestSession.appID), "client-event-id": "i"]))
        #expect(await raw.sendFrame(["op": "join-room", "room-id": "r", "client-event-id": "j"]))
        #expect(await raw.sendFrame(["op": "add-query", "q": ["goals": [:]], "client-event-id": "q"]))
        var sessionID: String?
        var subscribed = false
        while !subscribed, let frame = await raw.readFrame() {
          guard frame.opcode == 0x1 else { continue }
          let message = try JSON.parse(String(decoding: frame.payload, as: UTF8.self))
          if message["op"] == "init-ok" { sessionID = message["session-id"]?.stringValue }
          subscribed = message["op"] == "add-query-ok"
        }
        let id = try #require(sessionID)
        try #require(subscribed)

        // From here the raw reader reads nothing. Each write makes its result 20 KB larger, so
        // the refreshes queued for it (36 MB over 60 writes) grow past the bound and past what
        // the socket buffers hold.
        let title = String(repeating: "x", count: 20_000)
        var written: Set<String> = []
        for n in 0..<60 {
          let goal = newID()
          let ok = try await writer.request(transact(createEntity(goal, idAttr: idAttr, [titleAttr: .string("\(n)\(title)")])))
          #expect(ok["op"] == "transact-ok")
          written.insert(goal)
        }

        // The watcher's room loses the stalled session, while the raw socket is still open on
        // this side: the server closed it. And the watcher, which reads, has every goal. One loop
        // reads both kinds of message, in whichever order they come (waiting for one kind alone
        // dropped the other: the last refresh, when the cut-off came after it, under load).
        var gone = false
        var seen: Set<String> = []
        while !gone || seen != written {
          let update = try await watcher.next() {
            $0["op"] == "refresh-presence" || $0["op"] == "patch-presence" || $0["op"] == "refresh-ok"
          }
          let text = update.serialized()
          switch update["op"] {
          case "refresh-ok":
            seen = Set(triples(update["computations"]?[0]?["instaql-result"]).compactMap { $0[0]?.stringValue })
          case "refresh-presence":
            if update["data"]?[id] == nil { gone = true }
          default:
            if text.contains(id) && text.contains("\"-\"") { gone = true }
          }
        }
      }
      await writer.close()
      await watcher.close()
    }
  }

  @Test("The sink counts queued bytes down as the writer takes them and up as presence coalesces; past the bound it drops its queue once")
  func sinkBound() async throws {
    let overflows = LockedList()
    let sink = SessionSink(maxQueuedBytes: 100) { overflows.append($0) }
    sink.send(text: String(repeating: "a", count: 40))
    sink.send(text: String(repeating: "b", count: 40))
    #expect(sink.queuedBytes == 80)
    #expect(await sink.nextFrames()?.count == 2)
    #expect(sink.queuedBytes == 0, "taken frames no longer count")

    sink.sendPresencePatch(roomID: "r", edits: "12345")
    let patch = sink.queuedBytes
    sink.sendPresencePatch(roomID: "r", edits: "678")
    #expect(sink.queuedBytes == patch + 4, "a joined patch counts its new edits and a comma")
    sink.sendPresenceSnapshot(roomID: "r", text: "S")
    #expect(sink.queuedBytes == 1, "a snapshot replaces the room's queued presence")
    #expect(overflows.values.isEmpty)

    sink.send(text: String(repeating: "c", count: 60))
    sink.send(text: String(repeating: "d", count: 60))
    #expect(overflows.values == [121])
    sink.send(text: "more")
    #expect(overflows.values == [121], "reported once")
    #expect(await sink.nextFrames() == nil, "the queue is dropped and the writer ends")
  }
}

/// Values appended from any thread.
final class LockedList: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [Int] = []
  func append(_ value: Int) { lock.withLock { list.append(value) } }
  var values: [Int] { lock.withLock { list } }
}
