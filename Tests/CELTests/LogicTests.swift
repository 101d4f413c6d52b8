import CEL
import Testing

/// `&&`, `||`, `!` and `?:`, with CEL's error-absorbing, commutative `&&` and `||`.
@Suite("Logical operators")
struct LogicTests {
  // E is an error (division by zero); N is not a bool (a no-such-overload error when it matters).
  static let E = "(1 / 0 == 0)"
  static let N = "'str'"

  static let truthTableCases: [Case] = [
    Case("true && true", true), Case("true && false", false),
    Case("false && true", false), Case("false && false", false),
    Case("false && \(E)", false), Case("\(E) && false", false),
    Case("true && \(E)", .error(.divisionByZero)), Case("\(E) && true", .error(.divisionByZero)),
    Case("\(E) && \(E)", .error(.divisionByZero)),
    Case("false && \(N)", false), Case("\(N) && false", false),
    Case("true && \(N)", .error(.noSuchOverload)), Case("\(N) && true", .error(.noSuchOverload)),

    Case("true || true", true), Case("true || false", true),
    Case("false || true", true), Case("false || false", false),
    Case("true || \(E)", true), Case("\(E) || true", true),
    Case("false || \(E)", .error(.divisionByZero)), Case("\(E) || false", .error(.divisionByZero)),
    Case("\(E) || \(E)", .error(.divisionByZero)),
    Case("true || \(N)", true), Case("\(N) || true", true),
    Case("false || \(N)", .error(.noSuchOverload)), Case("\(N) || false", .error(.noSuchOverload)),

    // Chains: any decisive term wins, wherever it is; otherwise the first error is raised.
    Case("\(E) && \(E) && false", false), Case("\(E) || \(N) || true", true),
    Case("true && \(E) && \(N)", .error(.divisionByZero)), Case("\(N) && \(E)", .error(.noSuchOverload)),
    Case("(\(E) && false) || (true && \(E))", .error(.divisionByZero)),
    Case("(\(E) || true) && (false || true)", true),
    // Unbound variables and missing keys are errors like any other.
    Case("missing || true", true), Case("{'a': 1}.b == 1 || true", true),
    Case("false && {'a': 1}.b == 1", false), Case("{'a': 1}.b == 1 && true", .error(.noSuchKey)),

    Case("!true", false), Case("!false", true), Case("!\(E)", .error(.divisionByZero)),
    Case("!\(N)", .error(.noSuchOverload)), Case("!!true", true), Case("!!!true", false),
    // A tower of the same unary operator collapses (as in cel-go and cel-java): `!!x` is `x`.
    Case("!!'str'", "str"),

    Case("true ? 1 : 2", 1), Case("false ? 1 : 2", 2),
    Case("true ? 1 : \(E)", 1), Case("false ? \(E) : 2", 2),
    Case("\(E) ? 1 : 2", .error(.divisionByZero)), Case("\(N) ? 1 : 2", .error(.noSuchOverload)),
    Case("true ? \(E) : 2", .error(.divisionByZero)),
    // Right-associative, lowest precedence.
    Case("false ? 1 : true ? 2 : 3", 2), Case("true || false ? 'a' : 'b'", "a"),
    Case("1 < 2 == true", true),
  ]

  @Test(arguments: truthTableCases) func truthTable(_ c: Case) { check(c) }

  @Test("The untaken branch of ?: and the undecided side of && / || do not run")
  func shortCircuitRunsNothingElse() throws {
    let calls = CallCounter()
    var functions = CELFunctions()
    functions.function("count", arity: 0) { _ in
      calls.increment()
      return .bool(true)
    }
    #expect(try eval("true ? 1 : count()", functions: functions) == 1)
    #expect(try eval("false && count()", functions: functions) == false)
    #expect(try eval("true || count()", functions: functions) == true)
    #expect(calls.value == 0)
    #expect(try eval("count() && count()", functions: functions) == true)
    #expect(calls.value == 2)
  }
}

/// Counts calls from a host function (tests run one evaluation at a time).
final class CallCounter: @unchecked Sendable {
  private(set) var value = 0
  func increment() { value += 1 }
}
