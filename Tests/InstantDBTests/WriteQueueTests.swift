import Clocks
import InstantCore
import Testing

@testable import InstantDB

/// ``WriteQueue`` alone: what each event does to the queue, without a socket or a file.
@Suite struct WriteQueueTests {
  static func write(_ id: String, order: Int, _ steps: [JSON], sent: Bool = false) -> PendingMutation {
    PendingMutation(id: id, order: order, created: 0, steps: steps, wasSent: sent)
  }

  static let create: JSON = ["add-triple", "e", "title", "a", ["mode": "create"]]

  @Test("A write's status: waiting, acknowledged, finished, or unknown; the newest 1,000 outcomes are kept")
  func status() {
    var queue = WriteQueue([Self.write("w1", order: 1, [Self.create])])
    #expect(queue.nextOrder == 2)
    #expect(queue.status(of: "w1") == .waiting)
    #expect(queue.status(of: "nope") == .unknown)
    let clock = AnyClock(TestClock())
    #expect(queue.acknowledge("w1", txID: 7, at: clock.now)?.txID == 7)
    #expect(queue.status(of: "w1") == .acknowledged(txID: 7))
    queue.finish("w1", .success(7))
    #expect(queue.status(of: "w1") == .finished(.success(7)))
    for i in 0..<WriteQueue.keptOutcomes { queue.finish("later-\(i)", .success(i)) }
    #expect(queue.status(of: "w1") == .acknowledged(txID: 7), "its outcome aged out; the write is still pending")
    #expect(queue.status(of: "later-0") == .finished(.success(0)))
  }

  @Test("After init-ok every unacknowledged write is sent again in order; one that may have arrived goes without create modes and moot steps")
  func resend() {
    let clock = AnyClock(TestClock())
    var queue = WriteQueue([
      Self.write("sent", order: 1, [Self.create, ["add-triple", "e", "done", false]], sent: true),
      Self.write("acked", order: 2, [["add-triple", "f", "title", "f"]], sent: true),
      Self.write("new", order: 3, [["retract-triple", "e", "done", false], ["add-triple", "e", "done", true]]),
    ])
    _ = queue.acknowledge("acked", txID: 3, at: clock.now)
    var attrs = AttrStore()
    attrs.add(Attr(id: "done", forward: Ident(id: "f-done", etype: "todos", label: "done")))
    let (frames, firstSent) = queue.resend(knownAttrs: attrs)
    #expect(frames.map(\.clientEventID) == ["sent", "new"])
    guard case let .transact(steps, _, _) = frames[0].body else {
      Issue.record("not a transact")
      return
    }
    // The later write retracts the earlier `done`, so that step is moot; the create mode goes.
    #expect(steps == [["add-triple", "e", "title", "a"]])
    #expect(firstSent == ["new"])
    #expect(queue.pending.allSatisfy { $0.txID != nil || ($0.wasSent && $0.sentOnThisSocket) })
    queue.socketClosed()
    #expect(queue.pending.allSatisfy { !$0.sentOnThisSocket })
  }

  @Test("A refusal: a fault keeps the write, an attr race is retried three times, anything else removes it")
  func refusals() {
    var queue = WriteQueue([Self.write("w", order: 1, [Self.create], sent: true)])
    queue.markSent("w")
    #expect(queue.refuse("other", ServerError(.validationFailed, message: "x")) == .notAWrite)
    #expect(queue.refuse("w", .serverFault("timeout")) == .keepPending)
    #expect(queue.pending.first?.sentOnThisSocket == false)
    let race = ServerError(.recordNotUnique, message: "m", hint: ["record-type": "ident"])
    for _ in 0..<WriteQueue.attrConflictRetryLimit { #expect(queue.refuse("w", race) == .retryWithServerAttrs) }
    guard case let .rejected(m) = queue.refuse("w", race) else {
      Issue.record("a fourth race was retried")
      return
    }
    #expect(m.id == "w")
    #expect(queue.pending.isEmpty)

    var other = WriteQueue([Self.write("v", order: 1, [Self.create])])
    #expect(other.refuse("v", ServerError(.permissionDenied, message: "no")) == .rejected(Self.write("v", order: 1, [Self.create])))
  }

  @Test("After a write's attr race, the writes sent after it on that socket are kept and sent again after it, not refused for good")
  func refusedAfterARace() {
    var queue = WriteQueue([
      Self.write("creates", order: 1, [Self.create], sent: true),
      Self.write("updates", order: 2, [["add-triple", "e", "title", "b", ["mode": "update"]]], sent: true),
    ])
    queue.markSent("creates")
    queue.markSent("updates")
    let race = ServerError(.recordNotUnique, message: "m", hint: ["record-type": "ident"])
    let missing = ServerError(.recordNotFound, message: "Updating entities that don't exist")
    #expect(queue.refuse("creates", race) == .retryWithServerAttrs)
    // It reached the server before its entity did.
    #expect(queue.refuse("updates", missing) == .retryAfterRace)
    queue.socketClosed()
    let (frames, _) = queue.resend(knownAttrs: AttrStore())
    #expect(frames.map(\.clientEventID) == ["creates", "updates"], "both again, in order")
    // On a socket where nothing raced, the same refusal is final.
    guard case .rejected = queue.refuse("updates", missing) else {
      Issue.record("refused without a race, yet kept")
      return
    }
  }

  @Test("Acknowledged writes leave once every result reflects them, or past the threshold once old enough")
  func dropFinished() async {
    let test = TestClock()
    let clock = AnyClock(test)
    var queue = WriteQueue((1...4).map { Self.write("w\($0)", order: $0, [Self.create]) })
    _ = queue.acknowledge("w1", txID: 10, at: clock.now)
    _ = queue.acknowledge("w2", txID: 20, at: clock.now)
    #expect(queue.dropFinished(floor: 15, now: clock.now, threshold: 200, age: .seconds(30)) == ["w1"])
    await test.advance(by: .seconds(30))
    #expect(
      queue.dropFinished(floor: 15, now: clock.now, threshold: 200, age: .seconds(30)) == [],
      "below the threshold, age alone drops nothing")
    #expect(queue.dropFinished(floor: 15, now: clock.now, threshold: 3, age: .seconds(31)) == [], "not old enough")
    #expect(queue.dropFinished(floor: 15, now: clock.now, threshold: 3, age: .seconds(30)) == ["w2"])
    #expect(queue.pending.map(\.id) == ["w3", "w4"], "unacknowledged writes never leave this way")
    let (acknowledged, unacknowledged) = queue.removeAll()
    #expect(acknowledged == [] && unacknowledged == ["w3", "w4"])
    #expect(queue.pending.isEmpty)
  }
}
