import CEL
import Testing

/// The public value types: literals, descriptions, maps.
@Suite("Values")
struct ValueTests {
  @Test("Descriptions read like CEL source")
  func descriptions() {
    #expect(CELValue.uint(3).description == "3u")
    #expect(CELValue.double(2).description == "2.0")
    #expect(CELValue.string("a\"b\n").description == #""a\"b\n""#)
    #expect(CELValue.bytes([0x61, 0xff]).description == #"b"a\xff""#)
    #expect(CELValue.list([1, "x", nil]).description == #"[1, "x", null]"#)
    #expect(CELValue.map(["a": true]).description == #"{"a": true}"#)
    #expect(CELValue.timestamp(CELTimestamp(seconds: 0)!).description == #"timestamp("1970-01-01T00:00:00Z")"#)
    #expect(CELValue.duration(CELDuration(nanoseconds: 1_500_000)).description == #"duration("0.001500s")"#)
    #expect(CELValue.type(.timestamp).description == "google.protobuf.Timestamp")
  }

  @Test("Maps keep insertion order for iteration and ignore it for equality")
  func mapOrder() {
    var map = CELMap()
    map["z"] = 1
    map[.int(5)] = 2
    map["a"] = 3
    #expect(map.keys == ["z", .int(5), "a"])
    map["z"] = 4
    #expect(map.keys == ["z", .int(5), "a"])
    map[.int(5)] = nil
    #expect(map.keys == ["z", "a"])
    #expect(map.count == 2)
    #expect(map == ["a": 3, "z": 4])
    #expect(map != ["a": 3])
  }

  @Test("Values returned by programs")
  func programValues() throws {
    #expect(try eval("{'k': [1, 2u, 3.0, b'x', null]}") == ["k": [1, .uint(2), 3.0, .bytes([120]), nil]])
    #expect(try eval("timestamp('2027-01-01T00:00:00Z') - timestamp('2026-12-31T23:00:00Z')")
      == .duration(CELDuration(seconds: 3600)!))
    #expect(try eval("x", ["x": .object(Strict())]).celType == CELType("strict"))
  }

  @Test("Unbound variables are evaluation errors")
  func unbound() {
    let error = evaluationError("nobody + 1")
    #expect(error?.kind == .unboundVariable)
    #expect(error?.message == "no value for variable 'nobody'")
  }
}
