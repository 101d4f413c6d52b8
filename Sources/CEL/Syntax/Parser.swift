/// Recursive-descent parser for CEL's grammar (cel-spec `langdef.md`), with CEL's precedence:
/// `?:` < `||` < `&&` < relations and `in` < `+ -` < `* / %` < unary `! -` < member, index, call.
///
/// Depth is counted explicitly: every nested expression (parentheses, list elements, arguments)
/// enters one level, and every node's height is checked, so input like 10,000 `(` or `a.b.c.…`
/// is a parse error instead of a stack overflow.
struct Parser {
  private let tokens: [Token]
  private var index = 0
  private let maxDepth: Int
  private var depth = 0

  private init(tokens: [Token], maxDepth: Int) {
    self.tokens = tokens
    self.maxDepth = maxDepth
  }

  static func parse(_ source: [Unicode.Scalar], maxDepth: Int) throws(SourceError) -> Expr {
    var parser = Parser(tokens: try Lexer.tokenize(source), maxDepth: maxDepth)
    let expr = try parser.expression()
    guard parser.current.kind == .end else {
      throw SourceError(message: "unexpected \(parser.current.display) after the expression", offset: parser.current.offset)
    }
    return expr
  }

  /// Words CEL keeps for host languages: not usable as identifiers or global function names.
  static let reserved: Set<String> = [
    "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop",
    "package", "namespace", "return", "var", "void", "while",
  ]

  // MARK: Tokens

  private var current: Token { tokens[index] }
  private var following: Token { tokens[min(index + 1, tokens.count - 1)] }

  @discardableResult
  private mutating func advance() -> Token {
    let token = tokens[index]
    if index < tokens.count - 1 { index += 1 }
    return token
  }

  private mutating func accept(_ punctuation: String) -> Token? {
    current.isPunctuation(punctuation) ? advance() : nil
  }

  private mutating func expect(_ punctuation: String, _ context: String) throws(SourceError) -> Token {
    guard let token = accept(punctuation) else {
      throw SourceError(message: "expected '\(punctuation)' \(context), found \(current.display)", offset: current.offset)
    }
    return token
  }

  // MARK: Nodes and depth

  /// A node over `children`, rejected when the tree gets deeper than the limit.
  private func node(_ kind: ExprKind, at offset: Int, _ children: [Expr], extraHeight: Int = 0) throws(SourceError) -> Expr {
    let height = 1 + extraHeight + (children.map(\.height).max() ?? 0)
    guard height <= maxDepth else { throw tooDeep(offset) }
    return Expr(kind: kind, offset: offset, height: height)
  }

  private func tooDeep(_ offset: Int) -> SourceError {
    SourceError(message: "expression nests too deeply (the limit is \(maxDepth) levels)", offset: offset)
  }

  private mutating func enter() throws(SourceError) {
    depth += 1
    if depth > maxDepth { throw tooDeep(current.offset) }
  }

  // MARK: Grammar

  private mutating func expression() throws(SourceError) -> Expr {
    try enter()
    defer { depth -= 1 }
    let condition = try logicalOr()
    guard let question = accept("?") else { return condition }
    let whenTrue = try logicalOr()
    _ = try expect(":", "in the conditional operator")
    let whenFalse = try expression()
    return try node(.conditional(condition, whenTrue, whenFalse), at: question.offset, [condition, whenTrue, whenFalse])
  }

  private mutating func logicalOr() throws(SourceError) -> Expr {
    let first = try logicalAnd()
    guard current.isPunctuation("||") else { return first }
    let offset = current.offset
    var terms = [first]
    while accept("||") != nil { terms.append(try logicalAnd()) }
    return try node(.or(terms), at: offset, terms)
  }

  private mutating func logicalAnd() throws(SourceError) -> Expr {
    let first = try relation()
    guard current.isPunctuation("&&") else { return first }
    let offset = current.offset
    var terms = [first]
    while accept("&&") != nil { terms.append(try relation()) }
    return try node(.and(terms), at: offset, terms)
  }

  private mutating func relation() throws(SourceError) -> Expr {
    var left = try addition()
    while true {
      let op: BinaryOperator
      switch current.kind {
      case .punctuation("<"): op = .less
      case .punctuation("<="): op = .lessOrEqual
      case .punctuation(">"): op = .greater
      case .punctuation(">="): op = .greaterOrEqual
      case .punctuation("=="): op = .equal
      case .punctuation("!="): op = .notEqual
      case .inKeyword: op = .in
      default: return left
      }
      let offset = advance().offset
      let right = try addition()
      left = try node(.binary(op, left, right), at: offset, [left, right])
    }
  }

  private mutating func addition() throws(SourceError) -> Expr {
    var left = try multiplication()
    while true {
      let op: BinaryOperator
      switch current.kind {
      case .punctuation("+"): op = .add
      case .punctuation("-"): op = .subtract
      default: return left
      }
      let offset = advance().offset
      let right = try multiplication()
      left = try node(.binary(op, left, right), at: offset, [left, right])
    }
  }

  private mutating func multiplication() throws(SourceError) -> Expr {
    var left = try unary()
    while true {
      let op: BinaryOperator
      switch current.kind {
      case .punctuation("*"): op = .multiply
      case .punctuation("/"): op = .divide
      case .punctuation("%"): op = .modulo
      default: return left
      }
      let offset = advance().offset
      let right = try unary()
      left = try node(.binary(op, left, right), at: offset, [left, right])
    }
  }

  /// `!…x` or `-…x`. Like cel-go and cel-java, a tower of the same operator collapses to zero
  /// or one of it (`!!x` is `x`), but each one still counts toward the depth limit.
  private mutating func unary() throws(SourceError) -> Expr {
    guard current.isPunctuation("!") || current.isPunctuation("-") else { return try member() }
    let op = current.kind
    let offset = current.offset
    var count = 0
    while current.kind == op {
      advance()
      count += 1
      if count > maxDepth { throw tooDeep(offset) }
    }
    var operand: Expr
    if op == .punctuation("-"), let literal = try negativeLiteral() {
      // `-5` is a literal (so -9223372036854775808 is an int); the other minus signs negate it.
      count -= 1
      operand = literal
    } else {
      operand = try member()
    }
    guard count % 2 == 1 else {
      guard operand.height + count <= maxDepth else { throw tooDeep(offset) }
      return operand
    }
    let kind: ExprKind = op == .punctuation("!") ? .not(operand) : .negate(operand)
    return try node(kind, at: offset, [operand], extraHeight: count - 1)
  }

  /// A number literal right after a minus sign, negated, when nothing selects from it.
  private mutating func negativeLiteral() throws(SourceError) -> Expr? {
    guard !following.isPunctuation("."), !following.isPunctuation("[") else { return nil }
    let token = current
    switch token.kind {
    case .int(let magnitude):
      advance()
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw SourceError(message: "integer literal out of range", offset: token.offset)
      }
      let value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
      return try node(.literal(.int(value)), at: token.offset, [])
    case .double(let d):
      advance()
      return try node(.literal(.double(-d)), at: token.offset, [])
    default:
      return nil
    }
  }

  private mutating func member() throws(SourceError) -> Expr {
    var expr = try primary()
    while true {
      if let dot = accept(".") {
        if current.isPunctuation("?") {
          throw SourceError(message: "optional field selection ('.?') is not supported", offset: current.offset)
        }
        guard case .identifier(let name) = current.kind else {
          throw SourceError(message: "expected a field or method name after '.', found \(current.display)", offset: current.offset)
        }
        let nameOffset = advance().offset
        if current.isPunctuation("(") {
          let args = try arguments()
          expr = try Macros.method(expr, name, args, at: nameOffset) { (kind, children) throws(SourceError) in
            try self.node(kind, at: nameOffset, children)
          }
        } else if current.isPunctuation("{") {
          throw SourceError(message: "message construction ('Name{…}') is not supported", offset: current.offset)
        } else {
          expr = try node(.select(expr, name), at: dot.offset, [expr])
        }
      } else if let bracket = accept("[") {
        if current.isPunctuation("?") {
          throw SourceError(message: "optional index ('[?') is not supported", offset: current.offset)
        }
        let subscriptExpr = try expression()
        _ = try expect("]", "to close the index")
        expr = try node(.index(expr, subscriptExpr), at: bracket.offset, [expr, subscriptExpr])
      } else {
        return expr
      }
    }
  }

  private mutating func primary() throws(SourceError) -> Expr {
    let token = current
    switch token.kind {
    case .punctuation("."):
      advance()
      guard case .identifier(let name) = current.kind else {
        throw SourceError(message: "expected a name after the leading '.', found \(current.display)", offset: current.offset)
      }
      advance()
      return try identifierOrCall(name, rooted: true, at: token.offset)
    case .identifier(let name):
      advance()
      return try identifierOrCall(name, rooted: false, at: token.offset)
    case .punctuation("("):
      advance()
      let inner = try expression()
      _ = try expect(")", "to close the parenthesis")
      return inner
    case .punctuation("["):
      advance()
      try enter()
      defer { depth -= 1 }
      var elements: [Expr] = []
      while !current.isPunctuation("]") {
        elements.append(try expression())
        guard accept(",") != nil else { break }
      }
      _ = try expect("]", "to close the list")
      return try node(.list(elements), at: token.offset, elements)
    case .punctuation("{"):
      advance()
      try enter()
      defer { depth -= 1 }
      var entries: [(key: Expr, value: Expr)] = []
      while !current.isPunctuation("}") {
        let key = try expression()
        _ = try expect(":", "after a map key")
        let value = try expression()
        entries.append((key, value))
        guard accept(",") != nil else { break }
      }
      _ = try expect("}", "to close the map")
      return try node(.map(entries), at: token.offset, entries.flatMap { [$0.key, $0.value] })
    case .int(let magnitude):
      advance()
      guard magnitude <= UInt64(Int64.max) else {
        throw SourceError(message: "integer literal out of range", offset: token.offset)
      }
      return try node(.literal(.int(Int64(magnitude))), at: token.offset, [])
    case .uint(let value):
      advance()
      return try node(.literal(.uint(value)), at: token.offset, [])
    case .double(let value):
      advance()
      return try node(.literal(.double(value)), at: token.offset, [])
    case .string(let value):
      advance()
      return try node(.literal(.string(value)), at: token.offset, [])
    case .bytes(let value):
      advance()
      return try node(.literal(.bytes(value)), at: token.offset, [])
    case .trueLiteral:
      advance()
      return try node(.literal(.bool(true)), at: token.offset, [])
    case .falseLiteral:
      advance()
      return try node(.literal(.bool(false)), at: token.offset, [])
    case .nullLiteral:
      advance()
      return try node(.literal(.null), at: token.offset, [])
    case .end:
      throw SourceError(message: "unexpected end of input", offset: token.offset)
    default:
      throw SourceError(message: "unexpected \(token.display)", offset: token.offset)
    }
  }

  private mutating func identifierOrCall(_ name: String, rooted: Bool, at offset: Int) throws(SourceError) -> Expr {
    if Self.reserved.contains(name) {
      throw SourceError(message: "'\(name)' is a reserved word and cannot be used as a name", offset: offset)
    }
    if current.isPunctuation("(") {
      let args = try arguments()
      return try Macros.global(name, args, at: offset) { (kind, children) throws(SourceError) in
        try self.node(kind, at: offset, children)
      }
    }
    if current.isPunctuation("{") {
      throw SourceError(message: "message construction ('\(name){…}') is not supported", offset: current.offset)
    }
    return try node(.identifier(name, rooted: rooted), at: offset, [])
  }

  private mutating func arguments() throws(SourceError) -> [Expr] {
    _ = try expect("(", "to start the arguments")
    try enter()
    defer { depth -= 1 }
    var args: [Expr] = []
    while !current.isPunctuation(")") {
      args.append(try expression())
      guard accept(",") != nil else { break }
    }
    _ = try expect(")", "to close the arguments")
    return args
  }
}
