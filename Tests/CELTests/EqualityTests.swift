import CEL
import Testing

/// Equality and ordering: heterogeneous, as cel-java does with `CelOptions.current()`.
@Suite("Equality and ordering")
struct EqualityTests {
  static let cases: [Case] = [
    // Numbers compare by value across int, uint and double.
    Case("1 == 1.0", true), Case("1u == 1", true), Case("1 == 1.5", false), Case("-1 < 1u", true),
    Case("1 < 1.5", true), Case("2u > 1.5", true), Case("1 in [1.0, 2.0]", true),
    Case("{1: 'a'}[1u]", "a"), Case("{1: 'a'}[1.0]", "a"), Case("{1u: 'a'}[1]", "a"),
    Case("0.0 / 0.0 == 0.0 / 0.0", false), Case("0.0 / 0.0 != 0.0 / 0.0", true),
    Case("0.0 / 0.0 < 1.0", false), Case("0.0 / 0.0 >= 1.0", false),
    // Different non-numeric types are unequal, not an error.
    Case("1 == 'a'", false), Case("1 != 'a'", true), Case("null == false", false),
    Case("'a' == null", false), Case("null == null", true), Case("[] == {}", false),
    Case("x == null", false, bindings: ["x": "id"]), Case("x != null", true, bindings: ["x": "id"]),
    Case("[1, 'a'] == [1, 'a']", true), Case("[1, 2] == [1, 2, 3]", false),
    Case("[1, [2]] == [1.0, [2u]]", true), Case("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}", true),
    Case("{'a': 1} == {'a': 2}", false), Case("{'a': 1} == {'b': 1}", false),
    Case("type(1) == int", true), Case("type('a') == string", true), Case("type(1) == string", false),
    Case("type(type(1)) == type", true), Case("type(null) == null_type", true),
    Case("type({}) == map && type([]) == list", true),
    Case("type(timestamp('2027-01-01T00:00:00Z')) == google.protobuf.Timestamp", true),
    // Strings compare by code points: no Unicode normalization (é as one or two code points).
    Case("'\\u00e9' == 'e\\u0301'", false), Case("'a' < 'b'", true), Case("'B' < 'a'", true),
    Case("'abc' < 'abd'", true), Case("'ab' < 'abc'", true), Case("'\\u00e9' > 'z'", true),
    Case("b'\\x00' < b'\\xff'", true), Case("false < true", true), Case("true <= true", true),
    // Ordering is undefined on other types and across non-numeric types.
    Case("'a' < 1", .error(.noSuchOverload)), Case("[1] < [2]", .error(.noSuchOverload)),
    Case("null < null", .error(.noSuchOverload)), Case("{} > {}", .error(.noSuchOverload)),
    // `in` on lists and map keys.
    Case("'a' in ['a', 'b']", true), Case("'c' in ['a', 'b']", false), Case("2 in []", false),
    Case("'a' in {'a': 1}", true), Case("'b' in {'a': 1}", false), Case("1.5 in {1: 'x'}", false),
    Case("1 in 'abc'", .error(.noSuchOverload)), Case("null in [null]", true),
  ]

  @Test(arguments: cases) func equality(_ c: Case) { check(c) }

  @Test("Swift's == on CELValue is structural; celEquals is CEL's ==")
  func structuralVersusCEL() {
    #expect(CELValue.int(1) != CELValue.double(1))
    #expect(CELValue.int(1).celEquals(.double(1)))
    #expect(CELValue.double(.nan) == CELValue.double(.nan))
    #expect(!CELValue.double(.nan).celEquals(.double(.nan)))
    #expect(CELValue.string("\u{e9}") != CELValue.string("e\u{301}"))
    #expect(Set<CELValue>([.double(0), .double(-0.0), .double(.nan), .double(.nan)]).count == 2)
    let map: CELValue = ["a": 1, "b": [true, nil]]
    #expect(map == .map(["b": .list([.bool(true), .null]), "a": .int(1)]))
  }
}
