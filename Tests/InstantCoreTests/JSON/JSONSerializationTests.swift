import Testing
@testable import InstantCore

/// Serialization matches JavaScript's `JSON.stringify` (values checked with node).
@Suite("JSON serialization") struct JSONSerializationTests {
  @Test("numbers are written as JavaScript writes them", arguments: [
    (1e21, "1e+21"), (1e-7, "1e-7"), (0.1, "0.1"), (123456789012345683968, "123456789012345680000"),
    (100, "100"), (-0.0, "0"), (1.5e300, "1.5e+300"), (.leastNonzeroMagnitude, "5e-324"), (0.000001, "0.000001"),
    (1e20, "100000000000000000000"), (9007199254740992, "9007199254740992"), (-1234.5678, "-1234.5678"),
    (1.0 / 3.0, "0.3333333333333333"), (42, "42"), (-7, "-7"),
  ])
  func numbers(_ value: Double, _ text: String) {
    #expect(JSON.number(value).serialized() == text)
  }

  @Test("non-finite numbers become null") func nonFinite() {
    #expect(JSON.number(.infinity).serialized() == "null")
    #expect(JSON.number(.nan).serialized() == "null")
  }

  @Test("strings escape like JSON.stringify") func strings() {
    let s = "a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}\u{2028}é😀/"
    #expect(JSON.string(s).serialized() == #""a\"b\\c\n\r\t\b\f\u0001\u001f"# + "\u{7F}\u{2028}é😀/\"")
  }

  @Test("compact output keeps insertion order") func compact() throws {
    let value = try JSON.parse(#"{ "b": [1, {"y": null, "x": true}], "a": "s" }"#)
    #expect(value.serialized() == #"{"b":[1,{"y":null,"x":true}],"a":"s"}"#)
  }

  @Test("round trip") func roundTrip() throws {
    let text = #"{"b":[1,2.5,-0.001,{"y":null,"x":true}],"a":"s\n","c":{}}"#
    #expect(try JSON.parse(text).serialized() == text)
    #expect(try JSON.parse(JSON.parse(text).serialized(.pretty)) == JSON.parse(text))
  }

  @Test("canonical output sorts keys by UTF-16 code units, at every level") func canonical() throws {
    let value = try JSON.parse(#"{"ｚ":1,"😀":2,"é":3,"Z":4,"a":{"d":true,"c":-0.5}}"#)
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FF5A in UTF-16 (not in scalar order).
    #expect(value.canonicalString == #"{"Z":4,"a":{"c":-0.5,"d":true},"é":3,"😀":2,"ｚ":1}"#)
  }
}
