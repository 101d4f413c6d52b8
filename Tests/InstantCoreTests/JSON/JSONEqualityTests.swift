import OrderedCollections
import Testing

@testable import InstantCore

/// `JSON ==`: objects equal by members in any order, and copies of one object equal without
/// reading their members (what keeps comparing a 10,000-row answer with the last one cheap).
struct JSONEqualityTests {
  @Test("Objects are equal by members, in any order")
  func members() {
    let a: JSON = ["x": 1, "y": ["z": "w"]]
    let b: JSON = ["y": ["z": "w"], "x": 1]
    #expect(a == b)
    #expect(a != ["x": 1, "y": ["z": "v"]])
    #expect(a != ["x": 1])
  }

  @Test("A copy of an object is equal to it without its members being read")
  func copiesShareStorage() {
    // NaN is never equal to itself, so only the storage check can call these equal.
    let object: JSON = .object(["x": .number(.nan), "y": 1])
    let copy = object
    #expect(copy == object)
    // Built separately, the same members are read, and NaN makes them differ.
    #expect(JSON.object(["x": .number(.nan), "y": 1]) != object)
  }
}
