import Clocks
import InstantCore
import NIOConcurrencyHelpers

/// Where a session's outgoing frames go: an unbounded, ordered queue drained by the socket's
/// writer task. Sending never suspends, so the app actor can fan out to many sessions while
/// keeping each session's messages in the order they were produced.
///
/// Presence is coalesced while it waits, as the reference server does (docs/protocol.md, "Presence pushes"): a
/// `patch-presence` queued right behind another for the same room joins its edits, and a
/// `refresh-presence` replaces what is still queued for its room. A busy room then costs a slow
/// reader fewer, larger frames instead of an ever longer queue.
///
/// Presence is also paced: after a presence frame, the next one waits until the pacing interval
/// has passed, gathering what the room changed meanwhile into it. A quiet room's first change goes
/// out at once; a busy room costs each member at most one presence frame per interval instead of
/// one per change (50 peers updating 20 times a second would otherwise be ~1,000 frames a second
/// per socket). Other frames are never held back, except behind presence already waiting.
///
/// The queue is bounded by bytes: when what waits passes `maxQueuedBytes` (the reader does not
/// keep up), it is dropped, the sink takes nothing more and `overflow` is called once with the
/// size reached — the route closes the socket.
struct SessionSink: Sendable {
  private let outbox = BatchQueue<SessionOutbox.Item>()
  /// How presence is paced, if it is: the interval, and the clock that measures it (the
  /// server's; a `TestClock` in tests, so pacing is checked without waiting).
  private let presencePacing: (interval: Duration, clock: AnyClock<Duration>)?
  private let lastPresence = NIOLockedValueBox<AnyClock<Duration>.Instant?>(nil)
  private let maxQueuedBytes: Int
  /// Bytes queued (``SessionOutbox/Item/byteCount``), and whether the bound was passed.
  private let queued = NIOLockedValueBox((bytes: 0, overflowed: false))
  private let overflow: @Sendable (Int) -> Void

  init(
    presencePacing: (interval: Duration, clock: AnyClock<Duration>)? = nil, maxQueuedBytes: Int = .max,
    overflow: @escaping @Sendable (_ queuedBytes: Int) -> Void = { _ in }
  ) {
    self.presencePacing = presencePacing.flatMap { $0.interval > .zero ? $0 : nil }
    self.maxQueuedBytes = maxQueuedBytes
    self.overflow = overflow
  }

  /// Queues a message for the socket.
  func send(_ message: ServerMessage) {
    send(text: message.serialized())
  }

  /// Queues a message that is already serialized.
  func send(text: String) {
    append(.text(text))
  }

  private func append(_ item: SessionOutbox.Item) {
    var added = 0
    outbox.update { added = SessionOutbox.enqueue(item, into: &$0) }
    let overflowed: Int? = queued.withLockedValue { queued in
      queued.bytes += added
      guard queued.bytes > maxQueuedBytes, !queued.overflowed else { return nil }
      queued.overflowed = true
      return queued.bytes
    }
    if let overflowed {
      outbox.finish()
      _ = outbox.takeAll()
      overflow(overflowed)
    }
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

  /// How many bytes wait for the writer.
  var queuedBytes: Int { queued.withLockedValue { $0.bytes } }

  /// Ends the writer after everything queued so far is written.
  func finish() {
    outbox.finish()
  }

  /// Every frame queued since the last call, in order (waiting for one if none is); nil once
  /// finished and drained. The writer asks again only after writing them, so what queues
  /// meanwhile can coalesce.
  func nextFrames() async -> [String]? {
    guard var items = await outbox.next() else { return nil }
    if let (interval, clock) = presencePacing {
      if items.allSatisfy({ $0.roomID != nil }), let last = lastPresence.withLockedValue({ $0 }),
        clock.now < last.advanced(by: interval)
      {
        try? await clock.sleep(until: last.advanced(by: interval))
        for item in outbox.takeAll() { SessionOutbox.enqueue(item, into: &items) }
      }
      if items.contains(where: { $0.roomID != nil }) { lastPresence.withLockedValue { $0 = clock.now } }
    }
    let taken = items.reduce(0) { $0 + $1.byteCount }
    queued.withLockedValue { $0.bytes -= taken }
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

    /// What the item counts for against the session's bound: its frame's size.
    var byteCount: Int {
      switch self {
      case let .text(text), let .snapshot(_, text): text.utf8.count
      case let .patch(roomID, edits): roomID.utf8.count + 50 + Self.editBytes(edits)
      }
    }

    /// What edits add to a patch: each, and its comma.
    static func editBytes(_ edits: [String]) -> Int { edits.reduce(0) { $0 + $1.utf8.count + 1 } }

    var frame: String {
      switch self {
      case let .text(text), let .snapshot(_, text): text
      case let .patch(roomID, edits):
        ServerMessage.patchPresence(roomID: roomID, edits: .raw("[" + edits.joined(separator: ",") + "]")).serialized()
      }
    }
  }

  /// Adds `item` behind `items`, coalescing presence for the same room; returns by how many
  /// bytes (``Item/byteCount``) the queue grew (less than the item's own when it replaced some).
  @discardableResult
  static func enqueue(_ item: Item, into items: inout [Item]) -> Int {
    switch item {
    case let .patch(roomID, edits):
      if case let .patch(lastRoom, queued)? = items.last, lastRoom == roomID {
        items[items.count - 1] = .patch(roomID: roomID, edits: queued + edits)
        return Item.editBytes(edits)
      }
    case let .snapshot(roomID, _):
      // A snapshot is the whole room: presence still queued for the room says nothing more.
      let replaced = items.reduce(0) { $0 + ($1.roomID == roomID ? $1.byteCount : 0) }
      items.removeAll { $0.roomID == roomID }
      items.append(item)
      return item.byteCount - replaced
    case .text:
      break
    }
    items.append(item)
    return item.byteCount
  }
}
