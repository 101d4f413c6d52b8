import CEL
import Testing

/// Arithmetic: integers never wrap, division by zero is an error, doubles are IEEE 754.
@Suite("Arithmetic")
struct ArithmeticTests {
  static let cases: [Case] = [
    Case("1 + 2 * 3", 7), Case("(1 + 2) * 3", 9), Case("7 / 2", 3), Case("-7 / 2", -3),
    Case("7 % 3", 1), Case("-7 % 3", -1), Case("2 - 3 - 4", -5), Case("100 / 10 / 5", 2),
    Case("-(-3)", 3), Case("- -3", 3), Case("-9223372036854775808", .value(.int(.min))),
    Case("9223372036854775807 + 1", .error(.overflow)),
    Case("-9223372036854775808 - 1", .error(.overflow)),
    Case("-(-9223372036854775808)", .error(.overflow)),
    Case("9223372036854775807 * 2", .error(.overflow)),
    Case("-9223372036854775808 / -1", .error(.overflow)),
    Case("-9223372036854775808 % -1", .error(.overflow)),
    Case("1 / 0", .error(.divisionByZero)), Case("1 % 0", .error(.divisionByZero)),
    Case("1u / 0u", .error(.divisionByZero)), Case("1u % 0u", .error(.divisionByZero)),
    Case("18446744073709551615u + 1u", .error(.overflow)), Case("0u - 1u", .error(.overflow)),
    Case("4294967296u * 4294967296u", .error(.overflow)), Case("3u * 4u", .value(.uint(12))),
    Case("1.5 + 1.5", 3.0), Case("1.0 / 0.0", .value(.double(.infinity))),
    Case("-1.0 / 0.0", .value(.double(-.infinity))), Case("0.0 / 0.0", .value(.double(.nan))),
    Case("1e308 * 10.0", .value(.double(.infinity))),
    // No implicit conversion between numeric types in arithmetic.
    Case("1 + 1.0", .error(.noSuchOverload)), Case("1 + 1u", .error(.noSuchOverload)),
    Case("1 + 'a'", .error(.noSuchOverload)), Case("1.5 % 1.0", .error(.noSuchOverload)),
    Case("-'a'", .error(.noSuchOverload)), Case("-1u", .error(.noSuchOverload)),
    Case("'a' + 'b'", "ab"), Case("'' + ''", ""), Case("b'a' + b'b'", .value(.bytes([97, 98]))),
    Case("[1] + [2, 3]", [1, 2, 3]), Case("[] + []", []), Case("[1] + 2", .error(.noSuchOverload)),
    Case("{'a': 1} + {'b': 2}", .error(.noSuchOverload)), Case("null + null", .error(.noSuchOverload)),
  ]

  @Test(arguments: cases) func arithmetic(_ c: Case) { check(c) }

  @Test("Overflow errors name the operation")
  func overflowMessage() {
    let error = evaluationError("1 + 9223372036854775807")
    #expect(error?.kind == .overflow)
    #expect(error?.message == "integer overflow: 1 + 9223372036854775807")
    #expect(error?.offset == 2)
  }
}
