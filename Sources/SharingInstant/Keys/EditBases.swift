import Foundation
import IdentifiedCollections

/// What a key knows of the values its reference held: every value the key gave it, in the order
/// the reference took them, and every edit saved while the reference still held it.
///
/// Sharing runs an edit's closure under the reference's lock and calls the key's `save` after
/// releasing it, and a key's values reach the reference under that same lock. When `save` finds
/// the edit still in the reference (``ReferenceReading/edit``), no value was taken after the
/// closure, so the closure was given the newest value taken: the edit's start, exactly. When it
/// finds a value taken after the closure, the start is one taken before; those stay here until a
/// newer one has been the reference's for ``retirement`` (a closure that saw the older one has
/// long since returned and saved by then). See docs/keys.md, "Writes: what `withLock` sends".
///
/// A value type with one owner (``CollectionSession``, under its lock).
struct EditBases<Entity: EntityIdentifiable & Equatable> {
  typealias Value = IdentifiedArrayOf<Entity>
  typealias Instant = ContinuousClock.Instant

  private struct Entry {
    let number: Int
    let value: Value
    /// When the reference took the value; `nil` while it is on its way (an asynchronous delivery).
    var taken: Instant?
    /// Whether it stands for an equal value the reference took before it as well.
    var repeated = false
    /// Since when the reference has held this value's content: when the first of the equal values
    /// it stands for was taken. A repeat (a client's echo of the key's own write) does not make the
    /// value before it recent again.
    var since: Instant?
  }

  /// How long a value stays a possible start after a newer one was taken by the reference.
  var retirement: Duration
  /// At most this many values are kept, the oldest taken ones retiring first. Large enough that a
  /// thread stalled between its closure and `save` while results pour in (100 a second under the
  /// stress run's writer) still finds its start: with 8, a stall of 100 ms under load retired it,
  /// and the edit deleted rows that arrived meanwhile.
  let capacity: Int
  private var entries: [Entry] = []
  private var nextNumber = 0

  init(retirement: Duration = .seconds(2), capacity: Int = 64) {
    self.retirement = retirement
    self.capacity = capacity
  }

  /// The newest value given to the reference (taken or on its way).
  var newest: Value? { entries.last?.value }

  /// The newest value the reference took.
  var newestTaken: Value? { entries.last { $0.taken != nil }?.value }

  /// Whether the newest value taken stands for an equal one taken before it, which an edit may
  /// have started from even when the newest itself was taken after the edit's closure.
  var newestTakenRepeats: Bool { entries.last { $0.taken != nil }?.repeated ?? false }

  /// Records `value` as given to the reference; returns its number for ``taken(_:at:)``. A value
  /// equal to the newest, already taken one replaces it (a client's answer to the key's own write
  /// usually equals the edit), so a quiet key keeps one value.
  mutating func give(_ value: Value) -> Int {
    var repeated = false
    var since: Instant?
    if let last = entries.last, last.taken != nil, Self.same(last.value, value) {
      entries.removeLast()
      repeated = true
      since = last.since
    }
    return append(Entry(number: nextNumber, value: value, taken: nil, repeated: repeated, since: since))
  }

  /// The reference took value `number` at `now`.
  mutating func taken(_ number: Int, at now: Instant) {
    guard let index = entries.lastIndex(where: { $0.number == number }) else { return }
    entries[index].taken = now
    if entries[index].since == nil { entries[index].since = now }
  }

  /// The edit `value` was saved while the reference held it.
  mutating func edited(_ value: Value, at now: Instant) {
    append(Entry(number: nextNumber, value: value, taken: now, since: now))
  }

  /// Adds `entry` (numbered `nextNumber`), retiring the oldest taken value beyond ``capacity``.
  @discardableResult
  private mutating func append(_ entry: Entry) -> Int {
    entries.append(entry)
    nextNumber += 1
    if entries.count > capacity, let oldest = entries.firstIndex(where: { $0.taken != nil }) {
      entries.remove(at: oldest)
    }
    return entry.number
  }

  /// The values the reference took that may still be an edit's start, oldest first: all but those
  /// older than one the reference has held (its content, ``Entry/since``) for ``retirement``.
  mutating func retained(at now: Instant) -> [Value] {
    if let settled = entries.lastIndex(where: { $0.since.map { $0 + retirement <= now } ?? false }), settled > 0 {
      entries.removeFirst(settled)
    }
    return entries.filter { $0.taken != nil }.map(\.value)
  }

  /// The taken values that were still the reference's newest within `window` before `now`
  /// (oldest first), each with when the reference began to hold its content: a start an edit
  /// saved now could have had if its closure ended that recently. A value stopped being the
  /// newest when the content after it was first taken (``Entry/since``).
  func recent(at now: Instant, within window: Duration) -> [(value: Value, since: Instant)] {
    let taken = entries.filter { $0.taken != nil }
    return taken.indices.filter { index in
      index == taken.count - 1 || taken[index + 1].since! + window > now
    }.map { (taken[$0].value, taken[$0].since!) }
  }

  /// Whether two values hold the same entities in the same order (a row not re-decoded is the same
  /// bits, which settles it without `==`).
  static func same(_ a: Value, _ b: Value) -> Bool {
    guard a.count == b.count else { return false }
    return a.elements.withUnsafeBufferPointer { x in
      b.elements.withUnsafeBufferPointer { y in
        for index in x.indices {
          if memcmp(x.baseAddress! + index, y.baseAddress! + index, MemoryLayout<Entity>.size) == 0 { continue }
          if x[index].id != y[index].id || x[index] != y[index] { return false }
        }
        return true
      }
    }
  }
}

/// What a key found its reference holding when an edit was saved (read back through Sharing's
/// one reference per key id).
enum ReferenceReading<Value> {
  /// The edit itself, the same storage: nothing was taken after the closure.
  case edit
  /// Another value: one taken after the closure, or another thread's edit not yet saved.
  case other(Value)
  /// The key could not read it.
  case unknown
}

// MARK: - Reading the reference back

/// How a key reads back the value its `@Shared` holds when an edit is saved: Sharing keeps one
/// reference per key id, so `Shared(wrappedValue:_:)` with the key itself finds it. Should that
/// make a new reference instead (another dependency context's, say), the new one's `load` and
/// `subscribe` find ``isMakingStray`` set, do nothing, and the reading is `.unknown`.
enum ReferenceReadBack {
  final class Probe: @unchecked Sendable {
    // Read and written under `lock` only.
    private let lock = NSLock()
    private var stray = false
    func markStray() { lock.withLock { stray = true } }
    var madeStray: Bool { lock.withLock { stray } }
  }

  @TaskLocal static var probe: Probe?

  /// Whether a read-back is making a new reference (the caller, a key's `load` or `subscribe`,
  /// then leaves it inert).
  static var isMakingStray: Bool {
    guard let probe else { return false }
    probe.markStray()
    return true
  }

  /// What `read` finds compared with `edit`, the value the edit's closure left: the same storage
  /// (`.edit`), another value (converted to the key's collection), or `.unknown`.
  static func reading<Output, Entity>(
    of edit: Output, read: () -> Output, sameStorage: (Output, Output) -> Bool,
    convert: (Output) -> IdentifiedArrayOf<Entity>
  ) -> ReferenceReading<IdentifiedArrayOf<Entity>> {
    let probe = Probe()
    let current = $probe.withValue(probe) { read() }
    if probe.madeStray { return .unknown }
    return sameStorage(current, edit) ? .edit : .other(convert(current))
  }

  /// Whether two arrays share one buffer (two empty ones count as the same: an empty edit is
  /// only ever told apart by the values the key took, see ``EditBases``).
  static func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
    guard a.count == b.count else { return false }
    guard !a.isEmpty else { return true }
    return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
  }

  static func sameStorage<Entity>(_ a: IdentifiedArrayOf<Entity>, _ b: IdentifiedArrayOf<Entity>) -> Bool {
    sameStorage(a.elements, b.elements)
  }
}
