import IdentifiedCollections
import InstantCore
import InstantDB

/// Everything one collection key decides, as a value with no I/O: what it gave its reference,
/// which results it shows, and the writes of its edits, in order. Events go in as mutating calls
/// (a result arrived, the reference was looked at, a write reached the client's queries or could
/// not, a save waits); what to do comes back from them (show, hold, write these ops, start the
/// pump, resume these saves, show this held result). `CollectionSession` owns one under its lock
/// and does the I/O; the tests drive one directly (`CollectionKeyStateTests`).
struct CollectionKeyState<Value: KeyCollection> {
  typealias Entity = Value.Entity
  typealias Collection = IdentifiedArrayOf<Entity>

  /// What the reference holds as far as the key has seen.
  private(set) var given = GivenValue<Value>()
  /// Whether the key has given the reference a value (the first one, its load, is given at once).
  var gaveValue = false
  /// What this key's edits met so far.
  private(set) var statistics = KeyEditStatistics()

  // MARK: Results

  /// The last result shown.
  private(set) var lastResult: QueryResult?
  /// The newest result that came while a write of this key was not yet in the client's queries.
  private(set) var heldResult: QueryResult?
  /// The ``QueryResult/sequence`` of the last result shown: an older one never replaces it.
  private var shownSequence = 0

  // MARK: Writes

  /// Edits' writes not yet handed to the client, oldest first: one pump hands them over in order.
  private var outbox: [[InstaMLOp]] = []
  private(set) var isPumping = false
  /// Writes are numbered as they are made and end (reach the client's queries, or fail to) in that
  /// order; a save waits for the number made when it was called.
  private var writesMade = 0
  private var writesEnded = 0
  var writesInFlight: Int { writesMade - writesEnded }
  private var waiting: [(upTo: Int, resume: @Sendable () -> Void)] = []
  /// Why this key's last write could not be queued (encoding, or the client refused it), until a
  /// later write is queued: what `save()` throws.
  private(set) var unqueued: (any Error)?
  /// The server's refusal of the key's last write, until the key's next write.
  private(set) var rejection: (any Error)?

  init() {}

  // MARK: Events: results

  /// A result arrived: whether to show it now. It is not when it is older than what the key shows;
  /// nor while a write of the key is on its way into the client's queries (a result from before it
  /// would undo it on screen), when the newest such result is held for ``writeEnded(failure:)``.
  mutating func arrived(_ result: QueryResult) -> Bool {
    guard isCurrent(result) else { return false }
    guard writesInFlight == 0 else {
      if result.sequence >= heldResult?.sequence ?? 0 { heldResult = result }
      return false
    }
    return true
  }

  /// Whether `result` is not older than the one shown last.
  func isCurrent(_ result: QueryResult) -> Bool {
    result.sequence == 0 || result.sequence >= shownSequence
  }

  /// `result` is the one shown now.
  mutating func shows(_ result: QueryResult) {
    lastResult = result
    shownSequence = max(shownSequence, result.sequence)
  }

  // MARK: Events: the reference

  /// The key gave the reference `value` plainly (not under its lock): the reference holds it.
  mutating func gave(_ value: Value) {
    given.holds(value)
    gaveValue = true
  }

  /// What a look at the reference found, and what to do about it.
  struct Look {
    /// What to put in the reference (the value to show with the edits found on top); `nil` when
    /// there was no value to show.
    var next: Value?
    /// The value the key gave, when no closure ran since.
    var unchanged: Value?
    /// The writes of the edits found.
    var edit: Edit?
    /// Edits were found, but the key had no value before them: nothing to diff against, nothing
    /// written.
    var noStart = false
  }

  /// The reference holds `current`; `showing` is a value to give it, or `nil` for a look only. Edits
  /// found (``GivenValue/look(at:)``) are turned into writes against their exact start, and the
  /// value to show gets the edited entities on top.
  mutating func looked(at current: Value, showing value: Collection?, key: EntityKey<Entity>) -> Look {
    var look = Look()
    var next = value
    switch given.look(at: current) {
    case .given(let given):
      look.unchanged = given
    case .edited(let start, let edit):
      let made = edited(from: start, to: edit, key: key)
      if value != nil { statistics.editsMetByResults += 1 }
      next = next.map { GivenValue<Value>.onTop($0, of: edit, changed: made.changed) }
      look.edit = made
    case .noStart:
      look.noStart = true
    }
    guard let next else {
      given.holds(current)
      return look
    }
    let nextValue = Value(collection: next)
    given.holds(nextValue)
    look.next = nextValue
    return look
  }

  /// The writes of one edit.
  struct Edit {
    /// What was queued (empty when nothing differs, or the edit could not be encoded).
    var ops: [InstaMLOp] = []
    /// The ids of the entities that differ.
    var changed: Set<String> = []
    /// Whether the caller starts the pump that hands ``nextWrite()``s to the client.
    var startPump = false
    /// Why the edit could not be encoded (nothing was written).
    var failure: (any Error)?
  }

  /// An edit turned `start` into `edit`: its writes go in the outbox behind the key's earlier ones.
  /// (The deliberately broken key calls this with the value it gave last as `start`.)
  mutating func edited(from start: Collection, to edit: Collection, key: EntityKey<Entity>) -> Edit {
    var made = Edit()
    do {
      (made.ops, made.changed) = try EditWrites.ops(from: start, to: edit, key: key)
    } catch {
      unqueued = error
      made.failure = error
      made.changed = EntityChanges.ids(from: start, to: edit)
      return made
    }
    guard !made.ops.isEmpty else { return made }
    statistics.writes += 1
    writesMade += 1
    rejection = nil
    outbox.append(made.ops)
    if !isPumping {
      isPumping = true
      made.startPump = true
    }
    return made
  }

  /// The edit's values went in plainly (the broken key): the reference holds `value`.
  mutating func holds(_ value: Value) { given.holds(value) }

  // MARK: Events: writes

  /// The next write for the pump to hand the client; `nil` stops the pump (an edit starts the next).
  mutating func nextWrite() -> [InstaMLOp]? {
    guard !outbox.isEmpty else {
      isPumping = false
      return nil
    }
    return outbox.removeFirst()
  }

  /// What to do once a write ended.
  struct Ended {
    /// Saves whose writes are all queued now.
    var resume: [@Sendable () -> Void] = []
    /// A result held while writes were in flight, now that none is: shown, unless the client's
    /// current answer (made after the write reached its queries) is there to show instead.
    var show: QueryResult?
  }

  /// The oldest write in flight reached the client's queries (`failure == nil`) or could not be
  /// queued. A failed write leaves the result shown before it to be shown again (the edit is not
  /// in the client's answers).
  mutating func writeEnded(failure: (any Error)?) -> Ended {
    if let failure {
      unqueued = failure
      heldResult = heldResult ?? lastResult
    } else {
      unqueued = nil
    }
    writesEnded += 1
    var ended = Ended()
    ended.resume = waiting.filter { $0.upTo <= writesEnded }.map(\.resume)
    waiting.removeAll { $0.upTo <= writesEnded }
    guard writesInFlight == 0 else { return ended }
    ended.show = heldResult
    heldResult = nil
    return ended
  }

  /// A save waits for the writes made so far: `false` when there are none in flight (resume it
  /// now), else `resume` is returned by the ``writeEnded(failure:)`` that ends the last of them.
  mutating func waitForWrites(_ resume: @escaping @Sendable () -> Void) -> Bool {
    guard writesInFlight > 0 else { return false }
    waiting.append((writesMade, resume))
    return true
  }

  /// The server refused a write of this key: reported until the key's next write.
  mutating func refused(_ error: any Error) { rejection = error }

  /// What a save reports now: the write that could not be queued, if any.
  var saveOutcome: Result<Void, any Error> { unqueued.map { .failure($0) } ?? .success(()) }

  /// An edit was not written for a reason found outside the state (the reference could not be
  /// found, or a result replaced it before the first save): what `save()` throws.
  mutating func notWritten(_ error: any Error) { unqueued = error }
}
