import InstantCore
import NIOConcurrencyHelpers

/// Where a session's outgoing frames go: an unbounded, ordered queue drained by the socket's
/// writer task. Sending never suspends, so the app actor can fan out to many sessions while
/// keeping each session's messages in the order they were produced.
///
/// Presence is coalesced while it waits, as the reference server does (protocol.md §4.4): a
/// `patch-presence` queued right behind another for the same room joins its edits, and a
/// `refresh-presence` replaces what is still queued for its room. A busy room then costs a slow
/// reader fewer, larger frames instead of an ever longer queue.
///
/// Presence is also paced: after a presence frame, the next one waits until `presenceInterval`
/// has passed, gathering what the room changed meanwhile into it. A quiet room's first change goes
/// out at once; a busy room costs each member at most one presence frame per interval instead of
/// one per change (50 peers updating 20 times a second would otherwise be ~1,000 frames a second
/// per socket). Other frames are never held back, except behind presence already waiting.
struct SessionSink: Sendable {
  private let outbox = BatchQueue<SessionOutbox.Item>()
  private let presenceInterval: Duration
  private let lastPresence = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

  init(presenceInterval: Duration = .zero) {
    self.presenceInterval = presenceInterval
  }

  /// Queues a message for the socket.
  func send(_ message: JSON) {
    send(text: message.serialized())
  }

  /// Queues a message that is already serialized.
  func send(text: String) {
    append(.text(text))
  }

  private func append(_ item: SessionOutbox.Item) {
    outbox.update { SessionOutbox.enqueue(item, into: &$0) }
  }

  /// Queues a `patch-presence` for `roomID`; `edits` is the serialized edit list without its
  /// brackets (`e1,e2`), shared by every member the pass sends it to.
  func sendPresencePatch(roomID: String, edits: String) {
    append(.patch(roomID: roomID, edits: [edits]))
  }

  /// Queues a serialized `refresh-presence` for `roomID`.
  func sendPresenceSnapshot(roomID: String, text: String) {
    append(.snapshot(roomID: roomID, text: text))
  }

  /// How many items wait for the writer (coalesced presence counts once).
  var queuedCount: Int { outbox.count }

  /// Ends the writer after everything queued so far is written.
  func finish() {
    outbox.finish()
  }

  /// Every frame queued since the last call, in order (waiting for one if none is); nil once
  /// finished and drained. The writer asks again only after writing them, so what queues
  /// meanwhile can coalesce.
  func nextFrames() async -> [String]? {
    guard var items = await outbox.next() else { return nil }
    let clock = ContinuousClock()
    if items.allSatisfy({ $0.roomID != nil }), let last = lastPresence.withLockedValue({ $0 }),
      clock.now < last + presenceInterval
    {
      try? await clock.sleep(until: last + presenceInterval)
      for item in outbox.takeAll() { SessionOutbox.enqueue(item, into: &items) }
    }
    if items.contains(where: { $0.roomID != nil }) { lastPresence.withLockedValue { $0 = clock.now } }
    return items.map(\.frame)
  }
}

/// What waits in a session's queue, and how presence coalesces there.
enum SessionOutbox {
  enum Item: Equatable {
    case text(String)
    case patch(roomID: String, edits: [String])
    case snapshot(roomID: String, text: String)

    var roomID: String? {
      switch self {
      case .text: nil
      case let .patch(roomID, _), let .snapshot(roomID, _): roomID
      }
    }

    var frame: String {
      switch self {
      case let .text(text), let .snapshot(_, text): text
      case let .patch(roomID, edits):
        // Keys in the order `serialized()` writes them, as every other frame.
        "{\"edits\":[\(edits.joined(separator: ","))],\"op\":\"patch-presence\",\"room-id\":\(JSON.string(roomID).serialized())}"
      }
    }
  }

  /// Adds `item` behind `items`, coalescing presence for the same room.
  static func enqueue(_ item: Item, into items: inout [Item]) {
    switch item {
    case let .patch(roomID, edits):
      if case let .patch(lastRoom, queued)? = items.last, lastRoom == roomID {
        items[items.count - 1] = .patch(roomID: roomID, edits: queued + edits)
        return
      }
    case let .snapshot(roomID, _):
      // A snapshot is the whole room: presence still queued for the room says nothing more.
      items.removeAll { $0.roomID == roomID }
    case .text:
      break
    }
    items.append(item)
  }
}
