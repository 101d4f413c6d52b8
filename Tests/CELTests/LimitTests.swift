import CEL
import Testing

/// Hostile input: every limit gives an error quickly, and nothing crashes or hangs.
@Suite("Limits", .timeLimit(.minutes(10)))
struct LimitTests {
  /// Generous on source length so that the depth limit is what stops these.
  static let longSource = CELLimits(maxSourceLength: 2_000_000)

  static let deepSources: [String] = [
    String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
    String(repeating: "!", count: 10_000) + "true",
    String(repeating: "-", count: 10_000) + "1",
    String(repeating: "- ", count: 10_000) + "x",
    "a" + String(repeating: ".b", count: 10_000),
    "a" + String(repeating: "[0]", count: 10_000),
    String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
    String(repeating: "{1: ", count: 10_000) + "1" + String(repeating: "}", count: 10_000),
    String(repeating: "int(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
    "'a'" + String(repeating: ".trim()", count: 10_000),
    Array(repeating: "1", count: 10_000).joined(separator: " + "),
    Array(repeating: "x", count: 10_000).joined(separator: " == "),
    Array(repeating: "true ? 1 :", count: 10_000).joined(separator: " ") + " 2",
    String(repeating: "[1].map(x, ", count: 10_000) + "x" + String(repeating: ")", count: 10_000),
    String(repeating: "cel.bind(x, 1, ", count: 10_000) + "x" + String(repeating: ")", count: 10_000),
  ]

  @Test("Deep nesting is a parse error, not a stack overflow", arguments: deepSources)
  func deepNesting(_ source: String) {
    let error = parseError(source, limits: Self.longSource)
    #expect(error?.message.contains("nests too deeply") == true, "\(error?.message ?? "")")
  }

  @Test("Nesting within the limit works")
  func nestingWithinLimit() throws {
    let depth = 40
    let source = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
    #expect(try eval(source) == 1)
    #expect(try eval("a" + String(repeating: ".b", count: 20), ["a": Self.nested(20)]) == 1)
    // Long flat && / || chains, as generated permission rules have, do not count as depth.
    let chain = Array(repeating: "x == 1", count: 2_000).joined(separator: " && ")
    #expect(try CELProgram(chain, limits: Self.longSource).evaluate(CELVariables(["x": 1])) == true)
  }

  static func nested(_ depth: Int) -> CELValue {
    depth == 0 ? 1 : .map(["b": nested(depth - 1)])
  }

  @Test("A source past the length limit is rejected before it is parsed")
  func sourceLength() {
    let megabyte = String(repeating: "1 + ", count: 250_000) + "1"
    let error = parseError(megabyte)
    #expect(error?.message.contains("CELLimits.maxSourceLength") == true)
    #expect(error?.offset == 0)
  }

  @Test("A 100,000-item list in the source is bounded too")
  func hugeListLiteral() throws {
    let items = Array(repeating: "0", count: 100_000).joined(separator: ", ")
    // Rejected by default for its length…
    #expect(parseError("1 in [\(items)]") != nil)
    // …and when the length is allowed, it evaluates; past the collection limit it is an error.
    #expect(try CELProgram("1 in [\(items)]", limits: Self.longSource).evaluate() == false)
    var tight = Self.longSource
    tight.maxCollectionSize = 50_000
    #expect(parseError("[\(items)]", limits: tight)?.message.contains("CELLimits.maxCollectionSize") == true)
  }

  @Test("A million iterations through nested macros hit the step limit")
  func nestedMacros() {
    let list = CELValue.list((0..<100).map { .int($0) })
    let error = evaluationError("l.all(x, l.all(y, l.all(z, true)))", ["l": list])
    #expect(error?.kind == .limitExceeded)
    #expect(error?.message.contains("CELLimits.maxEvaluationSteps") == true)
    let thousand = CELValue.list((0..<1_000).map { .int($0) })
    #expect(evaluationError("l.map(x, l.map(y, x)).size() > 0", ["l": thousand])?.kind == .limitExceeded)
  }

  @Test("The step limit is never absorbed by || or exists")
  func stepLimitNotAbsorbed() {
    let list = CELValue.list((0..<1_000).map { .int($0) })
    #expect(evaluationError("l.all(x, l.all(y, true)) || true", ["l": list])?.kind == .limitExceeded)
    #expect(evaluationError("[1, 2].exists(i, l.all(x, l.all(y, true))) || true", ["l": list])?.kind == .limitExceeded)
  }

  @Test("Strings and lists that double in a loop stop at the size limits")
  func doubling() {
    let strings = "['ab']" + String(repeating: ".map(x, x + x)", count: 40)
    #expect(evaluationError(strings)?.message.contains("CELLimits.maxStringLength") == true)
    var source = "x"
    for _ in 0..<40 { source = "cel.bind(x, x + x, \(source))" }
    #expect(evaluationError(source, ["x": [1, 2, 3, 4]])?.message.contains("CELLimits.maxCollectionSize") == true)
    let replace = "s" + String(repeating: ".replace('a', 'aa')", count: 40)
    #expect(evaluationError(replace, ["s": "aaaa"])?.kind == .limitExceeded)
  }

  @Test("Regular expressions are bounded in size and in the text they scan")
  func regexLimits() {
    #expect(parseError("'a'.matches('a{1000}a{1000}a{1000}')")?.message.contains("pattern too large") == true)
    let text = CELValue.string(String(repeating: "ab", count: 100_000))
    #expect(evaluationError("s.matches('b$')", ["s": text])?.kind == .limitExceeded)
  }

  @Test("Limits are adjustable")
  func customLimits() throws {
    let tiny = CELLimits(maxSourceLength: 30, maxNestingDepth: 3, maxEvaluationSteps: 5)
    #expect(parseError(String(repeating: "1", count: 31), limits: tiny)?.message.contains("maxSourceLength") == true)
    #expect(parseError("1 + 2 + 3 + 4", limits: tiny)?.message.contains("nests too deeply") == true)
    #expect(parseError("((((1))))", limits: tiny)?.message.contains("nests too deeply") == true)
    #expect(evaluationError("[1,2,3].all(x, true)", limits: tiny)?.kind == .limitExceeded)
    #expect(try CELProgram("1 + 2", limits: tiny).evaluate() == 3)
  }
}
