import CEL
import Testing

/// The comprehension macros, `has()` and `cel.bind`.
@Suite("Macros")
struct MacroTests {
  static let E = "(1 / 0 == 0)"

  static let cases: [Case] = [
    Case("[1, 2, 3].all(x, x > 0)", true), Case("[1, 2, 0].all(x, x > 0)", false), Case("[].all(x, false)", true),
    Case("[1, 2, 3].exists(x, x == 2)", true), Case("[].exists(x, true)", false),
    Case("[1, 2, 2].exists_one(x, x == 1)", true), Case("[1, 2, 2].exists_one(x, x == 2)", false),
    Case("[].exists_one(x, true)", false),
    Case("[1, 2, 3].map(x, x * 2)", [2, 4, 6]), Case("[1, 2, 3, 4].map(x, x % 2 == 0, x * 10)", [20, 40]),
    Case("[].map(x, x)", []), Case("[1, 2, 3].filter(x, x > 1)", [2, 3]), Case("[1].filter(x, false)", []),
    // Maps iterate their keys, in the order they were written.
    Case("{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])", true), Case("{'b': 1, 'a': 2}.map(k, k)", ["b", "a"]),
    Case("{'a': 1, 'b': 2}.filter(k, k == 'b')", ["b"]), Case("{'a': 1, 'b': 2}.exists(k, k == 'c')", false),
    // all / exists absorb an element's error when another element decides; otherwise they raise it.
    Case("[0, 1].all(x, 1 / x > 5)", false), Case("[1, 0].all(x, 1 / x > 5)", false),
    Case("[0, 1].all(x, 1 / x >= 1)", .error(.divisionByZero)), Case("[1, 0].all(x, 1 / x >= 1)", .error(.divisionByZero)),
    Case("[0, 1].exists(x, 1 / x == 1)", true), Case("[1, 0].exists(x, 1 / x == 1)", true),
    Case("[0, 2].exists(x, 1 / x == 1)", .error(.divisionByZero)), Case("[1, 'a'].exists(x, x == 1)", true),
    Case("['a', 1].all(x, x > 0)", .error(.noSuchOverload)), Case("['a', -1].all(x, x > 0)", false),
    Case("[1, 2].all(x, 'nope')", .error(.noSuchOverload)),
    // exists_one, map and filter raise any element's error.
    Case("[0, 1].exists_one(x, 1 / x == 1)", .error(.divisionByZero)),
    Case("[1, 0].map(x, 1 / x)", .error(.divisionByZero)), Case("[1, 0].filter(x, 1 / x > 0)", .error(.divisionByZero)),
    Case("[1, 2].filter(x, x)", .error(.noSuchOverload)), Case("[1, 2].map(x, x, x)", .error(.noSuchOverload)),
    Case("1.all(x, true)", .error(.noSuchOverload)), Case("'abc'.exists(c, true)", .error(.noSuchOverload)),
    // Nested comprehensions and shadowing.
    Case("[[1, 2], [3]].all(l, l.all(x, x > 0))", true), Case("[1, 2].map(x, [3, 4].map(x, x))", [[3, 4], [3, 4]]),
    Case("[1, 2].map(x, [10, 20].map(y, x + y))", [[11, 21], [12, 22]]),
    Case("[1, 2].exists(x, x == y)", true, bindings: ["y": 2]), Case("[1].map(x, x) == [x]", true, bindings: ["x": 1]),
    Case("[1].map(x, .x)", [5], bindings: ["x": 5]),
    Case("[1, 2].all(x, \(E)) || true", true), Case("false && [1, 2].all(x, \(E))", false),
    // has() on maps.
    Case("has({'a': 1}.a)", true), Case("has({'a': 1}.b)", false), Case("has({'a': null}.a)", true),
    Case("has(m.a.b)", true, bindings: ["m": ["a": ["b": 1]]]), Case("has(m.x.b)", .error(.noSuchKey), bindings: ["m": [:]]),
    Case("has(1.a)", .error(.noSuchField)), Case("has(x)", .parseError), Case("has(m['a'])", .parseError),
    // cel.bind: a name for a value, evaluated at most once, only if used.
    Case("cel.bind(x, 2, x * x)", 4), Case("cel.bind(a, 1, cel.bind(b, a + 1, [a, b]))", [1, 2]),
    Case("cel.bind(x, 1 / 0, true)", true), Case("cel.bind(x, 1 / 0, x > 0 || true)", true),
    Case("cel.bind(x, 1 / 0, x > 0)", .error(.divisionByZero)), Case("cel.bind(x, 0, x == 0)", true, bindings: ["x": 1]),
    Case("[1, 2].map(y, cel.bind(d, y * 2, d + d))", [4, 8]), Case("cel.bind(x, [1, 2], x.map(x, x + 1))", [2, 3]),
    Case("cel.bind('x', 1, 1)", .parseError), Case("cel.bind(x, 1)", .parseError),
    // Macro argument shapes are checked when the program is created.
    Case("[1].all(1, true)", .parseError), Case("[1].all(x)", .parseError), Case("[1].exists(x.y, true)", .parseError),
    Case("[1].map(x)", .parseError), Case("[1].filter(x, x, x)", .parseError),
  ]

  @Test(arguments: cases) func macros(_ c: Case) { check(c) }

  @Test("A bound value is evaluated once however often it is read")
  func bindEvaluatesOnce() throws {
    let calls = CallCounter()
    var functions = CELFunctions()
    functions.function("expensive", arity: 0) { _ in
      calls.increment()
      return .int(21)
    }
    #expect(try eval("cel.bind(v, expensive(), v + v)", functions: functions) == 42)
    #expect(calls.value == 1)
    #expect(try eval("cel.bind(v, expensive(), true)", functions: functions) == true)
    #expect(calls.value == 1)
  }
}
