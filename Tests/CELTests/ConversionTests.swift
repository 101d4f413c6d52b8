import CEL
import Testing

/// The conversion functions and `type()`, `dyn()`.
@Suite("Conversions")
struct ConversionTests {
  static let cases: [Case] = [
    Case("int('42')", 42), Case("int('-42')", -42), Case("int(' 42')", .error(.invalidArgument)),
    Case("int('4.2')", .error(.invalidArgument)), Case("int(4.9)", 4), Case("int(-4.9)", -4),
    Case("int(1e19)", .error(.overflow)), Case("int(0.0 / 0.0)", .error(.overflow)),
    Case("int(18446744073709551615u)", .error(.overflow)), Case("int(true)", .error(.noSuchOverload)),
    Case("uint(42)", .value(.uint(42))), Case("uint(-1)", .error(.overflow)), Case("uint(-0.5)", .value(.uint(0))),
    Case("uint('7')", .value(.uint(7))), Case("uint('-7')", .error(.invalidArgument)),
    Case("double(1)", 1.0), Case("double(1u)", 1.0), Case("double('2.5')", 2.5), Case("double('x')", .error(.invalidArgument)),
    Case("string(42)", "42"), Case("string(-1)", "-1"), Case("string(2u)", "2"), Case("string('s')", "s"),
    Case("string(null)", .error(.noSuchOverload)), Case("string([1])", .error(.noSuchOverload)),
    Case("bool('true')", true), Case("bool('False')", false), Case("bool('yes')", .error(.invalidArgument)),
    Case("bool(1)", .error(.noSuchOverload)), Case("bytes('abc')", .value(.bytes([97, 98, 99]))),
    Case("type(1u)", .value(.type(.uint))), Case("type(1.0) == double", true), Case("type(b'') == bytes", true),
    Case("type(duration('1s')) == google.protobuf.Duration", true), Case("type(int) == type", true),
    Case("dyn(1) + 1", 2), Case("dyn([1])[0]", 1), Case("int == type(1)", true),
  ]

  @Test(arguments: cases) func conversions(_ c: Case) { check(c) }
}
