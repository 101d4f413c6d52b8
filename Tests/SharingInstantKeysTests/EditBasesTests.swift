import IdentifiedCollections
import InstantCore
import Testing

@testable import SharingInstant

/// The state an edit's writes are found from, without a server: which values an edit may have
/// started from (``EditBases``) and what several possible starts agree on (``EditWrites``).
@Suite("The values an edit may have started from")
struct EditBasesTests {
  typealias Value = IdentifiedArrayOf<Todo>
  let x = Todo(title: "x")
  let w = Todo(title: "w")
  let y = Todo(title: "y")
  let start = ContinuousClock.now

  private func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

  /// [x, w], then the same with w renamed and y created by another device.
  private func renamedWAndNewY() -> (Value, Value) {
    var renamed = w
    renamed.title = "w renamed"
    return ([x, w], [x, renamed, y])
  }

  /// `todo` as a later result decodes it: equal, with strings of its own (a client decodes a row
  /// again only when its JSON changed).
  private func decodedAgain(_ todo: Todo) -> Todo {
    var copy = todo
    copy.id = String(decoding: Array(todo.id.utf8), as: UTF8.self)
    copy.title = String(decoding: Array(todo.title.utf8), as: UTF8.self)
    return copy
  }

  private func shown(_ bases: inout EditBases<Todo>, _ value: Value, at time: Int) {
    bases.taken(bases.give(value), at: at(time))
  }

  @Test("A value stays a possible start until a newer one has been taken for the retirement time")
  func retirement() {
    var bases = EditBases<Todo>(retirement: .milliseconds(500))
    let c0: Value = [x]
    let d1: Value = [x, y]
    shown(&bases, c0, at: 0)
    shown(&bases, d1, at: 100)
    #expect(bases.retained(at: at(599)) == [c0, d1])
    #expect(bases.retained(at: at(600)) == [d1])
  }

  @Test("An edit's start stays a possible start while many newer values arrive before its save")
  func manyValuesDuringAStall() {
    var bases = EditBases<Todo>()
    shown(&bases, [x], at: 0)
    var value: Value = [x]
    for n in 1...40 {
      value.append(Todo(title: "arrived \(n)"))
      shown(&bases, value, at: n)
    }
    #expect(bases.retained(at: at(41)).first == [x])
  }

  @Test("A value on its way to the reference is not a start yet, and retires nothing")
  func onItsWay() {
    var bases = EditBases<Todo>(retirement: .milliseconds(500))
    shown(&bases, [x], at: 0)
    _ = bases.give([x, y])
    #expect(bases.retained(at: at(10_000)) == [[x]])
    #expect(bases.newestTaken == [x])
    #expect(bases.newest == [x, y])
  }

  @Test("An edit saved while the reference held it is the newest value taken")
  func afterAnEdit() {
    var bases = EditBases<Todo>()
    shown(&bases, [x], at: 0)
    bases.edited([w], at: at(1))
    #expect(bases.newestTaken == [w])
    #expect(bases.retained(at: at(2)) == [[x], [w]])
  }

  @Test("A value equal to the newest taken one does not add a possible start")
  func equalValues() {
    var bases = EditBases<Todo>()
    shown(&bases, [x, w], at: 0)
    var copy: Value = [x]
    copy.append(w)
    shown(&bases, copy, at: 1)
    #expect(bases.retained(at: at(2)).count == 1)
  }

  @Test("Reading back: a copy shares the edit's storage, a changed value does not")
  func storage() {
    let value: Value = [x, w]
    let copy = value
    var changed = value
    changed[id: x.id]?.done = true
    #expect(ReferenceReadBack.sameStorage(value, copy))
    #expect(!ReferenceReadBack.sameStorage(value, changed))
    #expect(!ReferenceReadBack.sameStorage(value, [x, w]))
    let array = [x, w]
    #expect(ReferenceReadBack.sameStorage(array, array))
    #expect(!ReferenceReadBack.sameStorage(array, [x, w]))
  }

  @Test("With one possible start the edit is diffed against it")
  func oneStart() throws {
    var edit: Value = [x, w]
    edit[id: x.id]?.done = true
    edit.remove(id: w.id)
    let writes = try EditWrites(edit: edit, starts: [[x, w]], newest: nil, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(x.id), ["done": true], upsert: false), .delete("todos", .id(w.id))])
    #expect(writes.onNewest == nil)
  }

  @Test("An edit of a value taken before the newest writes its own change only, and shows it on the newest")
  func olderStart() throws {
    let (c0, d1) = renamedWAndNewY()
    var edit = c0
    edit[id: x.id]?.done = true
    let writes = try EditWrites(edit: edit, startsBefore: [c0], newest: d1, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(x.id), ["done": true], upsert: false)])
    #expect(writes.withheld.isEmpty)
    var expected = d1
    expected[id: x.id]?.done = true
    #expect(writes.onNewest == expected)
  }

  @Test("A toggle back after a repeat of the newest value is written (the older equal value is not its start)")
  func toggleBackAfterRepeat() throws {
    // The demo's 500 toggles: E296 had x not done, E297 done; the server's answer equal to E297
    // was taken after the closure (a repeat, standing for E297). The edit sets x not done again.
    var done = decodedAgain(x)
    done.done = true
    let e296: Value = [x]
    let repeatOfE297: Value = [done]
    var edit = repeatOfE297
    edit[id: x.id]?.done = false
    let writes = try EditWrites(edit: edit, startsBefore: [e296, repeatOfE297], newest: repeatOfE297, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(x.id), ["done": false], upsert: false)])
  }

  @Test("An edit stalled before its save while rows arrived deletes none of them")
  func stallWithCreates() throws {
    let start: Value = [x, w]
    let later: Value = [x, w, y]
    let z = Todo(title: "z")
    let newest: Value = [x, w, y, z]
    var edit = start
    edit[id: x.id]?.done = true
    let writes = try EditWrites(edit: edit, startsBefore: [start, later], newest: newest, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(x.id), ["done": true], upsert: false)])
  }

  @Test("An edit stalled while another device renamed a row it kept does not write the old name back")
  func stallWithRename() throws {
    var renamed = decodedAgain(w)
    renamed.title = "w renamed"
    let start: Value = [x, w]
    let later: Value = [x, renamed]
    var edit = start
    edit[id: x.id]?.done = true
    let writes = try EditWrites(edit: edit, startsBefore: [start, later], newest: later, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(x.id), ["done": true], upsert: false)])
  }

  @Test("An edited row renamed elsewhere after the edit began is not written back with its old name")
  func renameOfTheEditedRow() throws {
    // Two values reached the reference after the closure: `later` renamed x, `newest` too.
    var renamed = decodedAgain(x)
    renamed.title = "x renamed"
    let start: Value = [x, w]
    let later: Value = [renamed, w]
    var edit = start
    edit[id: x.id]?.done = true
    let writes = try EditWrites(edit: edit, startsBefore: [start, later], newest: later, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(x.id), ["done": true], upsert: false)])
  }

  @Test("Only values the reference held in the last window count as recent")
  func recentValues() {
    var bases = EditBases<Todo>()
    shown(&bases, [x], at: 0)
    shown(&bases, [x, y], at: 100)
    #expect(bases.recent(at: at(105), within: .milliseconds(10)).map(\.value) == [[x], [x, y]])
    #expect(bases.recent(at: at(130), within: .milliseconds(10)).map(\.value) == [[x, y]])
  }

  @Test("An echo of the key's own edit does not make the value before the edit recent again")
  func echoKeepsRecency() throws {
    // The tiles demo under load: a square painted (the edit saved while the reference held it),
    // its echoes shown over the next moments, then the square cleared 50 ms after the paint while
    // one more echo lands between the clear's closure and its save. The value before the paint
    // stopped being the reference's at the paint, 50 ms ago: it is no recent start, and the
    // clear's delete is written.
    var bases = EditBases<Todo>()
    let before: Value = [x]
    let painted: Value = [x, y]
    shown(&bases, before, at: 0)
    bases.edited(painted, at: at(100))
    for echo in [102, 110, 149] { shown(&bases, [x, decodedAgain(y)], at: echo) }
    #expect(bases.recent(at: at(151), within: .milliseconds(10)).count == 1)
    #expect(bases.newestTakenRepeats)
    var cleared = bases.newestTaken!
    cleared.remove(id: y.id)
    let writes = try EditWrites(
      edit: cleared, startsBefore: bases.retained(at: at(151)), recent: bases.recent(at: at(151), within: .milliseconds(10)),
      newest: bases.newestTaken!, key: Schema.todos)
    #expect(writes.ops == [.delete("todos", .id(y.id))])
    #expect(writes.withheld.isEmpty)
    // The paint's own moment is still recent: a clear saved within 10 ms of it is the residue.
    #expect(bases.recent(at: at(105), within: .milliseconds(10)).count == 2)
  }

  @Test("A delete is withheld against a start held moments ago that lacked the row, not against an older one")
  func deleteAgainstRecentStarts() throws {
    // y arrived in `later`; the edit removes it, and a value reached the reference after.
    let older: Value = [x]
    let later: Value = [x, y]
    var edit = later
    edit.remove(id: y.id)
    let newest = later
    let recentOnly = try EditWrites(edit: edit, startsBefore: [older, later], recent: [(later, at(100))], newest: newest, key: Schema.todos)
    #expect(recentOnly.ops == [.delete("todos", .id(y.id))])
    let both = try EditWrites(edit: edit, startsBefore: [older, later], recent: [(older, at(0)), (later, at(100))], newest: newest, key: Schema.todos)
    #expect(both.ops.isEmpty)
    #expect(both.withheld.count == 1)
  }

  @Test("A delete of a row this device's own write made after a recent start lacking it is written; one made before is withheld")
  func deleteOfOwnRow() throws {
    // y arrived in `later`. Written by this device at 50 ms, after `older` (held since 0 ms): its
    // arrival was that write's. A write of y at -10 ms (before `older`, say a toggle while y was
    // in a window it then left) does not explain why `older` lacked it.
    let older: Value = [x]
    let later: Value = [x, y]
    var edit = later
    edit.remove(id: y.id)
    let recent = [(value: older, since: at(0)), (value: later, since: at(60))]
    let afterStart = try EditWrites(
      edit: edit, startsBefore: [older, later], recent: recent, newest: later, key: Schema.todos,
      ownWrite: { [y] in $1 == y.id ? at(50) : nil })
    #expect(afterStart.ops == [.delete("todos", .id(y.id))])
    let beforeStart = try EditWrites(
      edit: edit, startsBefore: [older, later], recent: recent, newest: later, key: Schema.todos,
      ownWrite: { [y] in $1 == y.id ? at(-10) : nil })
    #expect(beforeStart.ops.isEmpty)
    #expect(beforeStart.withheld == ["delete todos \"\(y.id)\""])
  }

  @Test("An edit of the newest of several possible starts writes all of its changes")
  func newestStart() throws {
    let c0: Value = [x, w]
    let d1: Value = [x, w, y]
    var edit = d1
    edit[id: x.id]?.title = "x renamed"
    edit.remove(id: w.id)
    let z = Todo(title: "z")
    edit.append(z)
    let writes = try EditWrites(edit: edit, starts: [c0, d1], newest: nil, key: Schema.todos)
    #expect(
      writes.ops == [
        .update("todos", .id(x.id), ["title": "x renamed"], upsert: false),
        .create("todos", .id(z.id), ["title": "z", "done": false]),
        .delete("todos", .id(w.id)),
      ])
    #expect(writes.withheld.isEmpty)
  }

  @Test("An entity that only some possible starts lack is updated strictly, never created")
  func noCreateOfWhatExisted() throws {
    let c0: Value = [x, w]
    let d1: Value = [x]  // w deleted elsewhere
    var edit = c0
    edit[id: w.id]?.title = "w, edited"
    let writes = try EditWrites(edit: edit, startsBefore: [c0], newest: d1, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(w.id), ["title": "w, edited"], upsert: false)])
  }

  @Test("The residue: undoing exactly what arrived meanwhile is withheld, keeping the other device's data")
  func residue() throws {
    // The edit deletes y, which arrived while it was made: it reads the same as an edit of c0
    // that changed nothing. Nothing is written; y stays.
    let c0: Value = [x]
    let d1: Value = [x, y]
    var edit = d1
    edit.remove(id: y.id)
    let writes = try EditWrites(edit: edit, starts: [c0, d1], newest: nil, key: Schema.todos)
    #expect(writes.ops.isEmpty)
    #expect(writes.onNewest == d1)
  }

  @Test("Two equally likely starts write only what both diffs share, and say what they withheld")
  func ties() throws {
    // c0 → d1: another device renamed w and created y. The edit sets x done and gives w the same
    // new title: against c0 that is two changes, against d1 too (x, and y gone). Only x is sure.
    let (c0, d1) = renamedWAndNewY()
    var edit = c0
    edit[id: x.id]?.done = true
    edit[id: w.id]?.title = "w renamed"
    let writes = try EditWrites(edit: edit, starts: [c0, d1], newest: nil, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(x.id), ["done": true], upsert: false)])
    #expect(writes.withheld.count == 1)
    #expect(writes.withheld.first?.contains("delete todos") == true && writes.withheld.first?.contains(y.id) == true)
  }

  @Test("An entity new to one possible start and changed in another is updated, not created")
  func tieOnANewEntity() throws {
    let c0: Value = [x]
    let d1: Value = [x, y]
    var edit = d1
    edit[id: y.id]?.done = true
    edit.remove(id: y.id)
    var mine = y
    mine.done = true
    edit.append(mine)
    let writes = try EditWrites(edit: edit, starts: [c0, d1], newest: nil, key: Schema.todos)
    #expect(writes.ops == [.update("todos", .id(y.id), ["done": true], upsert: false)])
  }
}
