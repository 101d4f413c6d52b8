import Testing
import InstantCore
internal import OrderedCollections

/// The typed step every side builds and matches tx-steps with: each constructor writes the
/// step the reference writes, and reads back as the same op with the same arguments.
struct TxStepTests {
  @Test("Each constructor writes the reference's step and reads back as itself")
  func constructorsWriteTheWireForm() throws {
    let cases: [(TxStep, JSON)] = [
      (.addTriple("e", "a", 1), ["add-triple", "e", "a", 1]),
      (.addTriple(["a", "x"], .null, ["a", "x"], mode: .create), ["add-triple", ["a", "x"], .null, ["a", "x"], ["mode": "create"]]),
      (.deepMergeTriple("e", "a", ["k": 1], mode: .update), ["deep-merge-triple", "e", "a", ["k": 1], ["mode": "update"]]),
      (.retractTriple("e", "a", "v"), ["retract-triple", "e", "a", "v"]),
      (.deleteEntity("e", etype: "todos"), ["delete-entity", "e", "todos"]),
      (.ruleParams("e", etype: "todos", ["k": 1]), ["rule-params", "e", "todos", ["k": 1]]),
      (.addAttr(["id": "a"]), ["add-attr", ["id": "a"]]),
      (.updateAttr(["id": "a", "unique?": true]), ["update-attr", ["id": "a", "unique?": true]]),
    ]
    for (step, wire) in cases {
      #expect(step.json == wire)
      let read = try TxStep(wire)
      #expect(read == step)
    }
    #expect(Set(cases.map(\.0.op)).isSuperset(of: TxStep.Op.allCases.filter { $0 != .deleteAttr && $0 != .restoreAttr }))
  }

  @Test("Reading names the argument positions and the mode")
  func reading() throws {
    let step = TxStep.addTriple("e", "a", 1, mode: .update)
    #expect(step.entity == "e")
    #expect(step.attrID == "a")
    #expect(step.value == 1)
    #expect(step.mode == .update)
    #expect(step.isTriple && step.isCompleteTriple)
    #expect(TxStep.retractTriple("e", "a", 1).mode == nil)
    #expect(TxStep.addAttr(["id": "a"]).attrArgument == ["id": "a"])
    #expect(TxStep.deleteEntity("e", etype: "t").attrArgument == nil)
  }

  @Test("What is not a step reads as nil or a named error, never a guess")
  func malformed() {
    #expect(TxStep.read("add-triple") == nil)
    #expect(TxStep.read(["frobnicate", "e"]) == nil)
    #expect(TxStep.read([1, "e"]) == nil)
    #expect(throws: TxStep.Malformed.self) { try TxStep(["frobnicate"]) }
  }
}
