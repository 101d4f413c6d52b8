import InstantChaos
import InstantCore
import Testing

/// The model and the comparison the chaos run relies on.
@Suite("Chaos model", .timeLimit(.minutes(1)))
struct ChaosStateTests {
  @Test("A result reads into entities and forward links")
  func readsResult() {
    let data: JSON = [
      "lists": [["id": "l1", "title": "a", "rank": 1, "items": [["id": "i1", "text": "x"]]]],
      "items": [["id": "i1", "text": "x", "tags": [["id": "t1", "name": "#a"]]]],
      "tags": [["id": "t1", "name": "#a"]],
    ]
    let state = ChaosState(result: data)
    #expect(state.entities["lists/l1"] == ["title": "a", "rank": 1])
    #expect(state.entities["items/i1"] == ["text": "x"])
    #expect(state.links == ["lists/l1/items/i1", "items/i1/tags/t1"])
  }

  @Test("Differences are classified: missing is lost, extra is duplicated, changed is diverged")
  func classifies() {
    var expected = ChaosState()
    expected.entities = ["lists/a": ["title": "x", "rank": 1], "tags/b": ["name": "n"]]
    expected.links = ["items/i/tags/b"]
    var actual = ChaosState()
    actual.entities = ["lists/a": ["title": "y"], "tags/c": ["name": "n"]]
    actual.links = ["lists/a/items/i"]
    let kinds = ChaosDifference.between(expected: expected, actual: actual).map(\.kind)
    #expect(kinds.filter { $0 == .lost }.count == 3)  // lists/a.rank, tags/b, the tag link
    #expect(kinds.filter { $0 == .duplicated }.count == 2)  // tags/c, the list link
    #expect(kinds.filter { $0 == .diverged }.count == 1)  // lists/a.title
  }

  @Test("The same seed makes the same writes")
  func seeded() {
    func writes(_ seed: UInt64) -> [[InstaMLOp]] {
      var rng = SplitMix(seed: seed)
      var model = ChaosClientModel()
      return (0..<50).map { _ in
        let (ops, after) = model.nextWrite(using: &rng)
        model = after
        return ops
      }
    }
    #expect(writes(7) == writes(7))
    #expect(writes(7) != writes(8))
  }
}
