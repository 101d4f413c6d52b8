import CEL
import Testing

/// One row of a table-driven test: an expression, what it must give, and the variables it reads.
struct Case: Sendable, CustomTestStringConvertible {
  enum Expected: Sendable {
    case value(CELValue)
    /// An evaluation error of this kind; `nil` accepts any error, including one when the program
    /// is created (the conformance files do not say which, and cel-java's type checker reports some
    /// of them at compile time where this implementation reports them at run time or vice versa).
    case error(CELEvaluationError.Kind?)
    /// Rejected when the program is created.
    case parseError
  }

  let expr: String
  let expected: Expected
  let bindings: [String: CELValue]
  let name: String

  init(_ expr: String, _ expected: Expected, bindings: [String: CELValue] = [:], _ name: String = "") {
    self.expr = expr
    self.expected = expected
    self.bindings = bindings
    self.name = name
  }

  /// `expr` must evaluate to `value`.
  init(_ expr: String, _ value: CELValue, bindings: [String: CELValue] = [:]) {
    self.init(expr, .value(value), bindings: bindings)
  }

  var testDescription: String { name.isEmpty ? expr : "\(name): \(expr)" }
}

/// Creates and evaluates the case's program and checks the outcome.
func check(_ c: Case, functions: CELFunctions = CELFunctions(), sourceLocation: SourceLocation = #_sourceLocation) {
  let program: CELProgram
  do {
    program = try CELProgram(c.expr, functions: functions)
  } catch {
    switch c.expected {
    case .parseError, .error(nil): return
    default: Issue.record("\(c.testDescription): rejected: \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  if case .parseError = c.expected {
    Issue.record("\(c.testDescription): accepted, but should be rejected", sourceLocation: sourceLocation)
    return
  }
  do {
    let value = try program.evaluate(CELVariables(c.bindings))
    switch c.expected {
    case .value(let expected):
      #expect(value == expected, "\(c.testDescription)", sourceLocation: sourceLocation)
    default:
      Issue.record("\(c.testDescription): gave \(value), expected an error", sourceLocation: sourceLocation)
    }
  } catch {
    switch c.expected {
    case .error(let kind):
      if let kind {
        #expect(error.kind == kind, "\(c.testDescription): \(error)", sourceLocation: sourceLocation)
      }
    default:
      Issue.record("\(c.testDescription): failed: \(error) (\(error.kind))", sourceLocation: sourceLocation)
    }
  }
}

/// The value of an expression that must evaluate.
func eval(_ source: String, _ variables: [String: CELValue] = [:], functions: CELFunctions = CELFunctions()) throws -> CELValue {
  try CELProgram(source, functions: functions).evaluate(CELVariables(variables))
}

/// The error an expression's evaluation raises (nil, with an issue recorded, if it gives a value).
func evaluationError(
  _ source: String, _ variables: [String: CELValue] = [:], functions: CELFunctions = CELFunctions(),
  limits: CELLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> CELEvaluationError? {
  do {
    let value = try CELProgram(source, functions: functions, limits: limits).evaluate(CELVariables(variables))
    Issue.record("\(source) gave \(value), expected an error", sourceLocation: sourceLocation)
  } catch let error as CELEvaluationError {
    return error
  } catch {
    Issue.record("\(source) was rejected: \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

/// The error creating a program raises (nil, with an issue recorded, if it is accepted).
func parseError(
  _ source: String, variables: Set<String>? = nil, functions: CELFunctions = CELFunctions(),
  limits: CELLimits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> CELParseError? {
  do {
    _ = try CELProgram(source, variables: variables, functions: functions, limits: limits)
    Issue.record("\(source.prefix(80)) was accepted, expected a parse error", sourceLocation: sourceLocation)
  } catch {
    return error
  }
  return nil
}
