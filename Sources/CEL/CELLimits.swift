/// Bounds that keep a hostile or careless program from crashing the host or holding it up.
/// Every bound, when passed, is a clear error: a ``CELParseError`` when the program is created,
/// a ``CELEvaluationError`` of kind `limitExceeded` when it runs.
public struct CELLimits: Sendable, Hashable {
  /// Longest source accepted, in Unicode scalars.
  public var maxSourceLength: Int
  /// Deepest nesting of the expression tree (parentheses, operators, calls, member chains). The
  /// parser, the compiler and the evaluator recurse on this tree, so it also bounds their stack.
  public var maxNestingDepth: Int
  /// Most evaluation steps in one evaluation: every operation, comprehension iteration and
  /// element an `in` or a comparison visits counts one.
  public var maxEvaluationSteps: Int
  /// Most elements in a list or map one operation produces.
  public var maxCollectionSize: Int
  /// Longest string (in Unicode scalars) or bytes one operation produces.
  public var maxStringLength: Int
  /// Largest compiled regular expression (`matches`), in instructions.
  public var maxRegexSize: Int

  public init(
    maxSourceLength: Int = 10_000,
    maxNestingDepth: Int = 100,
    maxEvaluationSteps: Int = 100_000,
    maxCollectionSize: Int = 100_000,
    maxStringLength: Int = 1_000_000,
    maxRegexSize: Int = 2_000
  ) {
    self.maxSourceLength = maxSourceLength
    self.maxNestingDepth = maxNestingDepth
    self.maxEvaluationSteps = maxEvaluationSteps
    self.maxCollectionSize = maxCollectionSize
    self.maxStringLength = maxStringLength
    self.maxRegexSize = maxRegexSize
  }

  public static let `default` = CELLimits()
}
