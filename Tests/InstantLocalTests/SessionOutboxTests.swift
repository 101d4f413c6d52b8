import Clocks
import TestSupport
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
  func pacing() async throws {
    let clock = ManualClock()
    let sink = SessionSink(presencePacing: (.seconds(2), AnyClock(clock)))

    sink.sendPresencePatch(roomID: "r", edits: "1")
    #expect(await sink.nextFrames() == [Self.patch("1")], "a quiet room's first change goes at once")

    // Two more changes, the second while the first waits: the next presence frame waits out the
    // interval on the clock, and both ride in it.
    sink.sendPresencePatch(roomID: "r", edits: "2")
    let next = Task { await sink.nextFrames() }
    try await eventually("the next presence frame waits on the clock") { await clock.sleeping(); return true }
    sink.sendPresencePatch(roomID: "r", edits: "3")
    #expect(clock.advance(by: .milliseconds(1_999)) == 0, "not before the interval has passed")
    #expect(clock.advance(by: .milliseconds(1)) == 1)
    #expect(await next.value == [Self.patch("2,3")])

    // A frame that is not presence goes out at once, even right after presence.
    sink.send(text: "transact-ok")
    let text = Task { await sink.nextFrames() }
    try await eventually("transact-ok goes out without the clock moving") { await text.value == ["transact-ok"] }
    sink.finish()
  }

  static func patch(_ edits: String) -> String {
    #"{"op":"patch-presence","room-id":"r","edits":[\#(edits)]}"#
  }

  @Test("A stream opened after the server began to stop ends at once; one opened before ends after its queue")
  func streamsOpenedWhileStopping() async throws {
    let streams = OpenStreams()
    let before = SessionSink()
    streams.add("before", before)
    before.send(text: "last chunk")
    await streams.finishAll()
    #expect(await before.nextFrames() == ["last chunk"])
    #expect(await before.nextFrames() == nil)
    let after = SessionSink()
    streams.add("after", after)
    // Nothing would ever end it otherwise (the check times out instead of hanging).
    try await eventually("the stream opened after stopping began ends") { await after.nextFrames() == nil }
  }
}
