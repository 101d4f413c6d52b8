/// A CEL expression, parsed and checked once, to evaluate many times.
///
/// ```swift
/// let rule = try CELProgram("auth.id == data.creatorId", variables: ["auth", "data"])
/// let allowed = try rule.evaluate(CELVariables(["auth": auth, "data": data])) == .bool(true)
/// ```
///
/// Creating a program rejects bad syntax, unknown functions and methods, wrong argument counts,
/// invalid literal regular expressions, undeclared variables (when `variables` is given), and
/// input past the ``CELLimits``. Evaluating it never crashes or runs away: errors are
/// ``CELEvaluationError`` values, and the step and size limits bound the work.
public struct CELProgram: Sendable {
  /// The source the program was created from.
  public let source: String
  public let limits: CELLimits
  /// The variables the expression reads, among those declared (or any name, when no
  /// `variables` were given): what a host must bind, and what it may leave out.
  public let referencedVariables: Set<String>
  private let root: Evaluator
  private let slots: Int

  /// - Parameters:
  ///   - variables: the variables the expression may read; a name outside them is an error now.
  ///     Nil accepts any name and looks it up when the program runs.
  ///   - functions: the host's functions and methods.
  public init(
    _ source: String,
    variables: Set<String>? = nil,
    functions: CELFunctions = CELFunctions(),
    limits: CELLimits = .default
  ) throws(CELParseError) {
    let scalars = Array(source.unicodeScalars)
    self.source = source
    self.limits = limits
    guard scalars.count <= limits.maxSourceLength else {
      throw Self.error(
        "expression is \(scalars.count) characters long; the limit is \(limits.maxSourceLength) (CELLimits.maxSourceLength)",
        at: 0, in: scalars)
    }
    do throws(SourceError) {
      let expr = try Parser.parse(scalars, maxDepth: limits.maxNestingDepth)
      var compiler = Compiler(functions: functions, variables: variables, limits: limits)
      root = try compiler.compile(expr).run
      slots = compiler.slotCount
      referencedVariables = compiler.referenced
    } catch {
      throw Self.error(error.message, at: error.offset, in: scalars)
    }
  }

  /// Evaluates the expression with the given variables.
  public func evaluate(_ activation: some CELActivation) throws(CELEvaluationError) -> CELValue {
    let frame = Frame(activation: activation, limits: limits, slots: slots)
    return try root(frame)
  }

  /// Evaluates with no variables (constant expressions).
  public func evaluate() throws(CELEvaluationError) -> CELValue {
    try evaluate(CELVariables())
  }

  /// Line and column (1-based) of an offset in the source.
  public func location(ofOffset offset: Int) -> (line: Int, column: Int) {
    Self.location(offset, in: Array(source.unicodeScalars))
  }

  private static func location(_ offset: Int, in scalars: [Unicode.Scalar]) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for scalar in scalars.prefix(offset) {
      if scalar == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return (line, column)
  }

  private static func error(_ message: String, at offset: Int, in scalars: [Unicode.Scalar]) -> CELParseError {
    let (line, column) = location(offset, in: scalars)
    return CELParseError(message: message, offset: offset, line: line, column: column)
  }
}
