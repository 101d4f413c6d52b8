import Foundation
import IdentifiedCollections
import InstantCore
import InstantDB
import Testing

@testable import SharingInstant

/// The collection key's decisions (``CollectionKeyState``) driven event by event, with no client,
/// reference, thread or clock: every interleaving here is an order of calls.
@Suite("A collection key's state, event by event")
struct CollectionKeyStateTests {
  typealias Value = IdentifiedArrayOf<Todo>
  typealias State = CollectionKeyState<Value>

  /// A result of the client, with `sequence`.
  static func result(_ sequence: Int, _ todos: [Todo] = []) -> QueryResult {
    let rows = JSON.array(todos.map { .object(["id": .string($0.id), "title": .string($0.title), "done": .bool($0.done)]) })
    return QueryResult(data: .object(["todos": rows]), isFromCache: false, hasPendingWrites: false, sequence: sequence)
  }

  /// A state that gave its reference `value` and edited it into `edit`: one write in the outbox.
  static func writing(_ value: Value, _ edit: (inout Value) -> Void) -> State {
    var state = State()
    state.gave(value)
    var edited = value
    edit(&edited)
    _ = state.looked(at: edited, showing: nil, key: Schema.todos)
    return state
  }

  @Test("A result older than the one shown is not shown; one the client did not number always is")
  func olderResults() {
    var state = State()
    state.shows(Self.result(5))
    let older = state.arrived(Self.result(3))
    #expect(!older)
    let same = state.arrived(Self.result(5))
    #expect(same)
    let newer = state.arrived(Self.result(6))
    #expect(newer)
    let unnumbered = state.arrived(Self.result(0))
    #expect(unnumbered)
  }

  @Test("While a write is in flight results are held, the newest kept, and shown when the last write ends")
  func heldWhileWriting() throws {
    let x = Todo(title: "x")
    var state = Self.writing([x]) { $0[id: x.id]?.done = true }
    #expect(state.writesInFlight == 1)
    let meanwhile = state.arrived(Self.result(7))
    #expect(!meanwhile)
    let olderMeanwhile = state.arrived(Self.result(6))
    #expect(!olderMeanwhile)
    #expect(state.heldResult?.sequence == 7)
    let taken = state.nextWrite()
    #expect(taken != nil)
    let ended = state.writeEnded(failure: nil)
    #expect(ended.show?.sequence == 7)
    #expect(state.heldResult == nil)
    let afterwards = state.arrived(Self.result(8))
    #expect(afterwards)
  }

  @Test("Writes are handed over in edit order by one pump per burst; a save resumes when its writes end")
  func pumpAndSaves() throws {
    let (x, y) = (Todo(title: "x"), Todo(title: "y"))
    var state = State()
    state.gave([x, y])
    var value: Value = [x, y]
    value[id: x.id]?.title = "first"
    let first = state.looked(at: value, showing: nil, key: Schema.todos).edit
    #expect(first?.startPump == true)
    let saves = Resumed()
    let waitsA = state.waitForWrites { saves.append("a") }
    #expect(waitsA)
    value[id: y.id]?.title = "second"
    let second = state.looked(at: value, showing: nil, key: Schema.todos).edit
    #expect(second?.startPump == false, "the running pump takes it")
    let waitsB = state.waitForWrites { saves.append("b") }
    #expect(waitsB)
    let meanwhileBoth = state.arrived(Self.result(4))
    #expect(!meanwhileBoth)

    let firstTaken = state.nextWrite()
    #expect(firstTaken == first?.ops)
    var ended = state.writeEnded(failure: nil)
    for resume in ended.resume { resume() }
    #expect(saves.names == ["a"])
    #expect(ended.show == nil, "the second write is still on its way")
    let secondTaken = state.nextWrite()
    #expect(secondTaken == second?.ops)
    ended = state.writeEnded(failure: nil)
    for resume in ended.resume { resume() }
    #expect(saves.names == ["a", "b"])
    #expect(ended.show?.sequence == 4)
    let drained = state.nextWrite()
    #expect(drained == nil)
    #expect(!state.isPumping)

    value[id: x.id]?.done = true
    let third = state.looked(at: value, showing: nil, key: Schema.todos)
    #expect(third.edit?.startPump == true, "a new burst, a new pump")
    let waits = state.waitForWrites {}
    #expect(waits, "a save waits for it")
  }

  @Test("A write that could not be queued shows the last result again, and saves report it until a write is queued")
  func failedWrite() throws {
    let x = Todo(title: "x")
    var state = State()
    state.shows(Self.result(2, [x]))
    state.gave([x])
    var value: Value = [x]
    value[id: x.id]?.done = true
    _ = state.looked(at: value, showing: nil, key: Schema.todos)
    _ = state.nextWrite()
    struct Refused: Error {}
    let ended = state.writeEnded(failure: Refused())
    #expect(ended.show?.sequence == 2, "the edit is not in the client's answers: show what is")
    #expect(throws: Refused.self) { try state.saveOutcome.get() }

    value[id: x.id]?.title = "again"
    _ = state.looked(at: value, showing: nil, key: Schema.todos)
    #expect(throws: Refused.self) { try state.saveOutcome.get() }
    _ = state.nextWrite()
    _ = state.writeEnded(failure: nil)
    #expect(throws: Never.self) { try state.saveOutcome.get() }
  }

  @Test("Two closures between looks are one write, diffed against the value given")
  func twoEditsOneWrite() throws {
    let (x, y) = (Todo(title: "x"), Todo(title: "y"))
    var state = State()
    let given: Value = [x, y]
    state.gave(given)
    var value = given
    value[id: x.id]?.title = "renamed"
    value.remove(id: y.id)
    let look = state.looked(at: value, showing: nil, key: Schema.todos)
    let edit = try #require(look.edit)
    #expect(edit.changed == [x.id, y.id])
    #expect(Set(edit.ops.map(\.action)) == [.update, .delete])
    #expect(edit.ops.first { $0.action == .update }?.args?["title"] == "renamed")
    #expect(look.next == nil)
    #expect(state.statistics.writes == 1 && state.statistics.editsMetByResults == 0)
    // The reference now holds the edit: looking again finds nothing new.
    let looksAgain = state.looked(at: value, showing: nil, key: Schema.todos)
    #expect(looksAgain.unchanged != nil)
  }

  @Test("A result meeting an edit: the edit is written against its own start and shown on top of the result")
  func resultMeetsEdit() throws {
    let (x, y) = (Todo(title: "x"), Todo(title: "y"))
    var state = State()
    let given: Value = [x, y]
    state.gave(given)
    var edited = given
    edited[id: x.id]?.done = true  // the app's closure
    var arrived = given  // the server's answer, made elsewhere: y renamed, z created
    arrived[id: y.id]?.title = "theirs"
    let z = Todo(title: "z")
    arrived.append(z)

    let look = state.looked(at: edited, showing: arrived, key: Schema.todos)
    let edit = try #require(look.edit)
    #expect(edit.changed == [x.id], "y's old title and z's absence are not the edit's")
    #expect(edit.ops.count == 1 && edit.ops[0].args?["done"] == true)
    let next = try #require(look.next)
    #expect(next[id: x.id]?.done == true)
    #expect(next[id: y.id]?.title == "theirs")
    #expect(next[id: z.id] != nil)
    #expect(state.statistics.editsMetByResults == 1)
    let lookAgain = state.looked(at: next, showing: nil, key: Schema.todos)
    #expect(lookAgain.unchanged != nil, "what was put in is given")
  }

  @Test("A row the edit deleted stays deleted on top of a result that still has it; a row that arrived is kept")
  func deleteMeetsResult() throws {
    let (x, y) = (Todo(title: "x"), Todo(title: "y"))
    var state = State()
    state.gave([x, y])
    var edited: Value = [x, y]
    edited.remove(id: y.id)
    let z = Todo(title: "z")
    let look = state.looked(at: edited, showing: [x, y, z], key: Schema.todos)
    #expect(look.edit?.ops.map(\.action) == [.delete])
    #expect(look.next?.ids == [x.id, z.id])
  }

  @Test("The value given, untouched, writes nothing; an edit before any value has no start and writes nothing")
  func nothingToWrite() {
    let x = Todo(title: "x")
    var state = State()
    let noStart = state.looked(at: [x], showing: nil, key: Schema.todos)
    #expect(noStart.noStart && noStart.edit == nil)
    #expect(state.writesInFlight == 0)

    let given: Value = [x]
    state.gave(given)
    let look = state.looked(at: given, showing: nil, key: Schema.todos)
    #expect(look.unchanged != nil && look.edit == nil)
    var changedBack = given
    changedBack[id: x.id]?.done = true
    changedBack[id: x.id]?.done = false
    let back = state.looked(at: changedBack, showing: nil, key: Schema.todos)
    #expect(back.edit?.ops == [] && back.edit?.startPump == false)
    #expect(state.writesInFlight == 0 && !state.isPumping)
  }
}

/// Names of the saves resumed, in order.
private final class Resumed: @unchecked Sendable {
  private let lock = NSLock()
  private var _names: [String] = []
  func append(_ name: String) { lock.withLock { _names.append(name) } }
  var names: [String] { lock.withLock { _names } }
}
