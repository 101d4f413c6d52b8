import InstantCore
import Testing

@testable import InstantLocal

/// Presence waiting in a session's queue is coalesced as the reference server does; everything
/// else keeps its place and order.
@Suite("Session outbox")
struct SessionOutboxTests {
  typealias Item = SessionOutbox.Item

  static func queue(_ items: [Item]) -> [Item] {
    var queued: [Item] = []
    for item in items { SessionOutbox.enqueue(item, into: &queued) }
    return queued
  }

  @Test("Patches for one room queued back to back join their edits, in order")
  func patchesJoin() throws {
    let queued = Self.queue([.text("a"), .patch(roomID: "r", edits: ["1"]), .patch(roomID: "r", edits: ["2,3"])])
    #expect(queued == [.text("a"), .patch(roomID: "r", edits: ["1", "2,3"])])
    let frame = try JSON.parse(queued[1].frame)
    #expect(frame == ["op": "patch-presence", "room-id": "r", "edits": [1, 2, 3]])
  }

  @Test("A patch never jumps over another message or another room's patch")
  func orderKept() {
    let queued = Self.queue([
      .patch(roomID: "r", edits: ["1"]), .text("join-room-ok"), .patch(roomID: "r", edits: ["2"]),
      .patch(roomID: "s", edits: ["3"]), .patch(roomID: "r", edits: ["4"]),
    ])
    #expect(queued == [
      .patch(roomID: "r", edits: ["1"]), .text("join-room-ok"), .patch(roomID: "r", edits: ["2"]),
      .patch(roomID: "s", edits: ["3"]), .patch(roomID: "r", edits: ["4"]),
    ])
  }

  @Test("A snapshot replaces the presence still queued for its room, and only that")
  func snapshotReplaces() {
    let queued = Self.queue([
      .patch(roomID: "r", edits: ["1"]), .text("x"), .snapshot(roomID: "s", text: "S1"),
      .snapshot(roomID: "r", text: "R1"), .patch(roomID: "r", edits: ["2"]),
    ])
    #expect(queued == [.text("x"), .snapshot(roomID: "s", text: "S1"), .snapshot(roomID: "r", text: "R1"), .patch(roomID: "r", edits: ["2"])])
  }

  @Test("The writer gets everything queued since it last asked, then nil once finished")
  func draining() async {
    let sink = SessionSink()
    sink.send(text: "one")
    sink.sendPresencePatch(roomID: "r", edits: "[[\"a\"],\"-\"]")
    sink.sendPresencePatch(roomID: "r", edits: "[[\"b\"],\"-\"]")
    let first = await sink.nextFrames()
    #expect(first?.count == 2)
    #expect(first?.first == "one")
    let waiting = Task { await sink.nextFrames() }
    sink.send(text: "two")
    let second = await waiting.value
    #expect(second == ["two"])
    sink.finish()
    let end = await sink.nextFrames()
    #expect(end == nil)
  }

  @Test("Presence is paced: the first change goes at once, later ones wait out the interval and share frames, other frames are not held")
  func pacing() async {
    let interval = Duration.seconds(2)
    let sink = SessionSink(presenceInterval: interval)
    let clock = ContinuousClock()
    sink.sendPresencePatch(roomID: "r", edits: "1")
    let start = clock.now
    #expect(await sink.nextFrames()?.count == 1, "a quiet room's first change")
    #expect(clock.now - start < .seconds(1))

    // Two more changes, the second a moment later: the next presence frame waits out the
    // interval; whatever arrived meanwhile rides in it, the rest in the one after.
    sink.sendPresencePatch(roomID: "r", edits: "2")
    let late = Task {
      try? await Task.sleep(for: .milliseconds(50))
      sink.sendPresencePatch(roomID: "r", edits: "3")
    }
    var seen = ""
    var sent: [ContinuousClock.Instant] = [start]
    while !(seen.contains("2") && seen.contains("3")), sent.count < 4, let frames = await sink.nextFrames() {
      sent.append(clock.now)
      seen += frames.joined()
    }
    await late.value
    #expect(seen.contains("\"edits\":[2") && seen.contains("3]"), "\(seen)")
    #expect(sent.count <= 3, "at most one frame per change")
    for (earlier, later) in zip(sent, sent.dropFirst()) {
      #expect(later - earlier >= interval, "presence frames are at least the interval apart")
    }

    // A frame that is not presence goes out at once, even right after presence.
    sink.send(text: "transact-ok")
    let beforeText = clock.now
    #expect(await sink.nextFrames() == ["transact-ok"])
    #expect(clock.now - beforeText < .seconds(1), "not held for the presence interval")
    sink.finish()
  }
}

