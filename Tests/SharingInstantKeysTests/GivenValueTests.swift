import IdentifiedCollections
import Testing

@testable import SharingInstant

/// What a key's look at its reference means (``GivenValue``), without a reference or a server.
@Suite("What a key finds in its reference")
struct GivenValueTests {
  typealias Value = IdentifiedArrayOf<Todo>

  @Test("The value given, untouched, is the value given; a closure's change is an edit from exactly it")
  func givenOrEdited() {
    let (x, w) = (Todo(title: "x"), Todo(title: "w"))
    var reference: Value = [x, w]
    var given = GivenValue<Value>()
    given.holds(reference)
    guard case .given = given.look(at: reference) else {
      Issue.record("untouched must read as given")
      return
    }

    let start = reference
    reference[id: x.id]?.done = true  // a closure, as Sharing runs it on the reference's value
    guard case .edited(let from, let edit) = given.look(at: reference) else {
      Issue.record("an edit")
      return
    }
    #expect(from == start)
    #expect(edit[id: x.id]?.done == true)
  }

  @Test("Two closures in a row read as one edit from the value given")
  func twoClosures() {
    let (x, w) = (Todo(title: "x"), Todo(title: "w"))
    var reference: Value = [x, w]
    var given = GivenValue<Value>()
    given.holds(reference)
    reference[id: x.id]?.done = true
    reference.remove(id: w.id)
    guard case .edited(let from, let edit) = given.look(at: reference) else {
      Issue.record("an edit")
      return
    }
    #expect(from.ids == [x.id, w.id])
    #expect(edit.ids == [x.id])
  }

  @Test("A closure that changes a field and changes it back is an edit with no difference, not a false start")
  func changedBack() throws {
    let x = Todo(title: "x")
    var reference: Value = [x]
    var given = GivenValue<Value>()
    given.holds(reference)
    reference[id: x.id]?.done = true
    reference[id: x.id]?.done = false
    guard case .edited(let from, let edit) = given.look(at: reference) else {
      Issue.record("an edit")
      return
    }
    #expect(try EditWrites.ops(from: from, to: edit, key: Schema.todos).ops.isEmpty)
  }

  @Test("Before the key knows a value there is no start")
  func noStart() {
    guard case .noStart = GivenValue<Value>().look(at: [Todo(title: "x")]) else {
      Issue.record("no start")
      return
    }
  }

  @Test("A new value goes in with the edited entities on top: changed, added, removed")
  func onTop() {
    let (x, w, y, new) = (Todo(title: "x"), Todo(title: "w"), Todo(title: "y"), Todo(title: "new"))
    var edit: Value = [x, w]
    edit[id: x.id]?.title = "x, edited"
    edit.remove(id: w.id)
    edit.append(new)
    let result: Value = [x, w, y]  // another device added y
    let shown = GivenValue<Value>.onTop(result, of: edit, changed: [x.id, w.id, new.id])
    #expect(shown.ids == [x.id, y.id, new.id])
    #expect(shown[id: x.id]?.title == "x, edited")
  }

  @Test("An empty value the key made is told apart from another empty value")
  func emptyBuffers() {
    var mine = Value()
    mine.reserveCapacity(1)
    let literal: Value = []
    #expect(Value.sameStorage(mine, mine))
    #expect(!Value.sameStorage(mine, literal))
  }
}
