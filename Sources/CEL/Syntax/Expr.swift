/// A parsed expression, macros already expanded.
struct Expr {
  let kind: ExprKind
  /// Offset of the node's first (or defining) token, for messages.
  let offset: Int
  /// Height of the tree under this node; bounded by ``CELLimits/maxNestingDepth``, so the passes
  /// that recurse on the tree cannot exhaust the stack.
  let height: Int

  /// Offset of the expression's first token (`a` in `a.b[c]`), where messages about the whole
  /// expression point.
  var start: Int {
    switch kind {
    case .select(let operand, _), .index(let operand, _), .method(let operand, _, _): min(operand.start, offset)
    case .binary(_, let left, _): min(left.start, offset)
    case .and(let terms), .or(let terms): min(terms.first?.start ?? offset, offset)
    case .conditional(let condition, _, _): min(condition.start, offset)
    default: offset
    }
  }
}

indirect enum ExprKind {
  case literal(CELValue)
  /// A name; `rooted` for `.name`, which skips comprehension variables.
  case identifier(String, rooted: Bool)
  case select(Expr, String)
  /// `has(e.f)`.
  case presence(Expr, String)
  case index(Expr, Expr)
  case call(String, [Expr])
  case method(Expr, String, [Expr])
  case list([Expr])
  case map([(key: Expr, value: Expr)])
  case not(Expr)
  case negate(Expr)
  case binary(BinaryOperator, Expr, Expr)
  /// `a && b && …`, kept flat so long rule chains do not deepen the tree.
  case and([Expr])
  case or([Expr])
  case conditional(Expr, Expr, Expr)
  case comprehension(Comprehension)
  /// `cel.bind(name, value, body)`.
  case bind(String, Expr, Expr)
}

enum BinaryOperator: String {
  case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%"
  case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
  case `in` = "in"
}

/// A list or map macro: `range.kind(variable, predicate[, transform])`.
struct Comprehension {
  enum Kind: String {
    case all, exists
    case existsOne = "exists_one"
    case map, filter
  }

  let kind: Kind
  let variable: String
  let range: Expr
  /// The predicate of all/exists/exists_one/filter, and the filter of the three-argument map.
  let predicate: Expr?
  /// What map produces for each element.
  let transform: Expr?
}
