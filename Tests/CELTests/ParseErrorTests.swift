import CEL
import Testing

/// What creating a program rejects, and where it says the problem is.
@Suite("Parse and check errors")
struct ParseErrorTests {
  struct Expectation: Sendable, CustomTestStringConvertible {
    let source: String
    let message: String
    let line: Int
    let column: Int
    var testDescription: String { source }
  }

  static let expectations: [Expectation] = [
    .init(source: "1 +", message: "unexpected end of input", line: 1, column: 4),
    .init(source: "(1 + 2", message: "expected ')' to close the parenthesis, found end of input", line: 1, column: 7),
    .init(source: "[1, 2", message: "expected ']' to close the list, found end of input", line: 1, column: 6),
    .init(source: "{'a' 1}", message: "expected ':' after a map key, found '1'", line: 1, column: 6),
    .init(source: "a = 1", message: "unexpected '=' (use '==' to compare)", line: 1, column: 3),
    .init(source: "a & b", message: "unexpected '&' (use '&&')", line: 1, column: 3),
    .init(source: "a #", message: "unexpected character '#'", line: 1, column: 3),
    .init(source: "1 2", message: "unexpected '2' after the expression", line: 1, column: 3),
    .init(source: "true ? 1", message: "expected ':' in the conditional operator, found end of input", line: 1, column: 9),
    .init(source: "foo(1)", message: "unknown function 'foo'", line: 1, column: 1),
    .init(source: "size(1, 2)", message: "size() takes 1 argument, not 2", line: 1, column: 1),
    .init(source: "'a'.nope()", message: "unknown method 'nope'", line: 1, column: 5),
    .init(source: "'a'.substring()", message: "substring() takes 1 to 2 arguments, not 0", line: 1, column: 5),
    .init(source: "x.int()", message: "int() is a function, not a method: write int(x)", line: 1, column: 3),
    .init(source: "math.greatest()", message: "math.greatest() takes at least 1 arguments, not 0", line: 1, column: 6),
    .init(source: "if", message: "'if' is a reserved word and cannot be used as a name", line: 1, column: 1),
    .init(source: "a.?b", message: "optional field selection ('.?') is not supported", line: 1, column: 3),
    .init(source: "Foo{a: 1}", message: "message construction ('Foo{…}') is not supported", line: 1, column: 4),
    .init(source: "9223372036854775808", message: "integer literal out of range", line: 1, column: 1),
    .init(source: "99999999999999999999u", message: "integer literal out of range", line: 1, column: 1),
    .init(source: "'ab\\qc'", message: "invalid escape sequence '\\q'", line: 1, column: 4),
    .init(source: "has(a)", message: "has() needs a field selection like has(m.f)", line: 1, column: 5),
    .init(source: "[1].all(x.y, true)", message: "the first argument of all() must be a simple name", line: 1, column: 9),
    .init(source: "'x'.matches('[a')", message: "invalid regular expression: missing ']'", line: 1, column: 13),
    .init(
      source: "auth.id == data.owner &&\n  data.tags.exists(i, i == auth.id) ||\n\tdata.tags.nope()",
      message: "unknown method 'nope'", line: 3, column: 12),
    .init(source: "// a comment\n  1 +", message: "unexpected end of input", line: 2, column: 6),
  ]

  @Test(arguments: expectations) func position(_ e: Expectation) {
    guard let error = parseError(e.source) else { return }
    #expect(error.message == e.message)
    #expect(error.line == e.line)
    #expect(error.column == e.column)
    #expect(error.description == "\(e.line):\(e.column): \(e.message)")
  }

  @Test("With declared variables, an undeclared name is rejected")
  func undeclaredVariable() throws {
    let variables: Set<String> = ["auth", "data"]
    #expect(throws: Never.self) { try CELProgram("auth.id == data.creatorId", variables: variables) }
    let error = parseError("auth.id == dta.creatorId", variables: variables)
    #expect(error?.message == "undeclared reference to 'dta'")
    #expect(error?.column == 12)
    // Comprehension variables, bound names and type names need no declaration.
    #expect(throws: Never.self) { try CELProgram("[1].all(x, x > 0) && cel.bind(y, 1, y == 1) && type(1) == int", variables: []) }
    // A dotted name may be declared whole.
    let program = try CELProgram("request.auth.id == 1", variables: ["request.auth"])
    #expect(try program.evaluate(CELVariables(["request.auth": ["id": 1]])) == true)
  }

  @Test("The offset of an evaluation error maps back to a line and column")
  func evaluationErrorLocation() throws {
    let program = try CELProgram("true &&\n  {'a': 1}.b == 1")
    #expect {
      try program.evaluate()
    } throws: { error in
      guard let error = error as? CELEvaluationError, let offset = error.offset else { return false }
      let location = program.location(ofOffset: offset)
      return error.kind == .noSuchKey && location.line == 2 && location.column == 11
    }
  }
}
