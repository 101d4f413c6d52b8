import Foundation

/// Parses expressions of the TypeScript subset used by schema files.
struct ExpressionParser {
  let source: SourceFile
  var position: Int

  var tokens: [Token] { source.tokens }
  var current: Token { tokens[position] }

  func lookahead(_ offset: Int) -> Token { tokens[min(position + offset, tokens.count - 1)] }
  mutating func advance() { if position < tokens.count - 1 { position += 1 } }

  func error(_ message: String, at token: Token) -> Diagnostic {
    .error(.syntax, message, at: source.location(of: token))
  }

  private static let binaryOperators: Set<String> = [
    "?", "||", "&&", "??", "+", "-", "*", "/", "%", "===", "==", "!==", "!=", "<", ">", "<=", "|", "&", "^",
    "**", "<<", "=",
  ]

  mutating func parseExpression() throws(Diagnostic) -> Expression {
    var expression = try parseUnary()
    if current.kind == .punctuation, Self.binaryOperators.contains(current.value), !atStatementBoundary {
      let operatorToken = current
      expression = .unsupported(
        operatorToken.value == "?" ? "a conditional expression (`? :`)" : "the operator `\(operatorToken.value)`",
        at: operatorToken.start)
      skipRestOfExpression()
    } else if current.kind == .identifier, ["instanceof", "in"].contains(current.value), !current.newlineBefore {
      expression = .unsupported("the operator `\(current.value)`", at: current.start)
      skipRestOfExpression()
    }
    return expression
  }

  private var atStatementBoundary: Bool {
    current.newlineBefore && current.kind == .identifier && ModuleParser.statementKeywords.contains(current.value)
  }

  /// Skips to the end of an expression the schema cannot use: the next `,`, `;` or closing
  /// bracket outside brackets, or the next statement.
  private mutating func skipRestOfExpression() {
    while current.kind != .endOfFile, !atStatementBoundary {
      if current.kind == .punctuation, [",", ")", "]", "}", ";"].contains(current.value) { return }
      if current.kind == .punctuation, ["(", "[", "{"].contains(current.value) {
        skipBalanced()
      } else {
        advance()
      }
    }
  }

  private mutating func skipType() {
    var skipper = ModuleParser(source: source)
    skipper.position = position
    skipper.skipType(stopAt: [",", ";", "="])
    position = skipper.position
  }

  private mutating func skipBalanced() {
    var skipper = ModuleParser(source: source)
    skipper.position = position
    skipper.skipBalanced()
    position = skipper.position
  }

  private mutating func parseUnary() throws(Diagnostic) -> Expression {
    let token = current
    if token.isPunctuation("-"), lookahead(1).kind == .number {
      advance()
      let number = current
      advance()
      return .number(-(Self.number(number.value) ?? .nan), at: token.start)
    }
    if token.isPunctuation("!") || token.isPunctuation("~") || token.isPunctuation("+") || token.isPunctuation("-") {
      advance()
      _ = try parseUnary()
      return .unsupported("the operator `\(token.value)`", at: token.start)
    }
    if token.kind == .identifier, ["typeof", "void", "await", "delete"].contains(token.value),
      lookahead(1).kind != .punctuation || ["(", "[", "{"].contains(lookahead(1).value)
    {
      advance()
      _ = try parseUnary()
      return .unsupported("`\(token.value)`", at: token.start)
    }
    return try parsePostfix(try parsePrimary())
  }

  static func number(_ text: String) -> Double? {
    let cleaned = text.replacingOccurrences(of: "_", with: "")
    if cleaned.hasPrefix("0x") || cleaned.hasPrefix("0X") { return UInt64(cleaned.dropFirst(2), radix: 16).map(Double.init) }
    if cleaned.hasPrefix("0b") || cleaned.hasPrefix("0B") { return UInt64(cleaned.dropFirst(2), radix: 2).map(Double.init) }
    if cleaned.hasPrefix("0o") || cleaned.hasPrefix("0O") { return UInt64(cleaned.dropFirst(2), radix: 8).map(Double.init) }
    return Double(cleaned.hasSuffix("n") ? String(cleaned.dropLast()) : cleaned)
  }

  private mutating func parsePrimary() throws(Diagnostic) -> Expression {
    let token = current
    switch token.kind {
    case .string, .template:
      advance()
      return .string(token.value, at: token.start)
    case .templateWithSubstitution:
      advance()
      return .unsupported("a template literal with `${…}`", at: token.start)
    case .regularExpression:
      advance()
      return .unsupported("a regular expression", at: token.start)
    case .number:
      advance()
      guard let value = Self.number(token.value) else { throw error("invalid number \(token.value)", at: token) }
      return .number(value, at: token.start)
    case .endOfFile:
      throw error("expected an expression, found end of file", at: token)
    case .identifier:
      switch token.value {
      case "true", "false":
        advance()
        return .boolean(token.value == "true", at: token.start)
      case "null", "undefined":
        advance()
        return .null(at: token.start)
      case "function", "class":
        advance()
        if current.kind == .identifier { advance() }
        while current.kind != .endOfFile, !current.isPunctuation("{") { skipBalanced() }
        skipBalanced()
        return .unsupported("a \(token.value) expression", at: token.start)
      case "new":
        advance()
        _ = try parsePostfix(try parsePrimary())
        return .unsupported("a `new` expression", at: token.start)
      case "async" where lookahead(1).isPunctuation("(") || lookahead(1).kind == .identifier:
        advance()
        return try parsePrimary()
      default:
        if lookahead(1).isPunctuation("=>") {
          advance()
          return try skipArrowBody(from: token)
        }
        advance()
        return .identifier(token.value, at: token.start)
      }
    case .punctuation:
      switch token.value {
      case "{": return try parseObject()
      case "[": return try parseArray()
      case "(":
        let save = position
        skipBalanced()
        if current.isPunctuation("=>") || current.isPunctuation(":") {
          if current.isPunctuation(":") {
            advance()
            skipType()
          }
          return try skipArrowBody(from: token)
        }
        position = save
        advance()
        let inner = try parseExpression()
        guard current.isPunctuation(")") else {
          if current.isPunctuation(",") {
            skipRestOfParenthesized(from: save)
            return .unsupported("the comma operator", at: token.start)
          }
          throw error("expected `)`, found \(current.display)", at: current)
        }
        advance()
        return inner
      case "<":
        return .unsupported("a type assertion `<T>`", at: token.start)
      default:
        throw error("expected an expression, found \(token.display)", at: token)
      }
    }
  }

  private mutating func skipRestOfParenthesized(from start: Int) {
    position = start
    skipBalanced()
  }

  private mutating func skipArrowBody(from token: Token) throws(Diagnostic) -> Expression {
    guard current.isPunctuation("=>") else { throw error("expected `=>`, found \(current.display)", at: current) }
    advance()
    if current.isPunctuation("{") {
      skipBalanced()
    } else {
      _ = try parseExpression()
    }
    return .unsupported("an arrow function", at: token.start)
  }

  private mutating func parsePostfix(_ base: Expression) throws(Diagnostic) -> Expression {
    var expression = base
    while true {
      let token = current
      if token.isPunctuation(".") || token.isPunctuation("?.") {
        advance()
        if current.isPunctuation("(") || current.isPunctuation("[") {
          continue
        }
        guard current.kind == .identifier else {
          throw error("expected a member name after `\(token.value)`, found \(current.display)", at: current)
        }
        expression = .member(expression, current.value, at: current.start)
        advance()
      } else if token.isPunctuation("["), !token.newlineBefore {
        advance()
        let key = try parseExpression()
        guard current.isPunctuation("]") else { throw error("expected `]`, found \(current.display)", at: current) }
        advance()
        if case .string(let name, _) = key {
          expression = .member(expression, name, at: token.start)
        } else {
          expression = .unsupported("a computed member access `[…]`", at: token.start)
        }
      } else if token.isPunctuation("<"), !token.newlineBefore, let typeArguments = scanTypeArguments() {
        position = typeArguments.endToken + 1
        guard current.isPunctuation("(") else {
          throw error("expected `(` after type arguments, found \(current.display)", at: current)
        }
        let arguments = try parseArguments()
        expression = .call(expression, typeArguments: typeArguments, arguments: arguments, at: token.start)
      } else if token.isPunctuation("("), !token.newlineBefore {
        let arguments = try parseArguments()
        expression = .call(expression, typeArguments: nil, arguments: arguments, at: token.start)
      } else if token.isPunctuation("!") {
        advance()
      } else if token.kind == .identifier, ["as", "satisfies"].contains(token.value), !token.newlineBefore {
        advance()
        skipType()
      } else if token.kind == .template || token.kind == .templateWithSubstitution {
        advance()
        expression = .unsupported("a tagged template", at: token.start)
      } else {
        return expression
      }
    }
  }

  /// Finds the `>` that closes the `<` at the current position when it is followed by `(`.
  private func scanTypeArguments() -> TypeArguments? {
    var depth = 0
    var index = position
    let open = tokens[position]
    while index < tokens.count {
      let token = tokens[index]
      if token.kind == .endOfFile { return nil }
      if token.kind == .punctuation {
        switch token.value {
        case "<", "(", "[", "{": depth += 1
        case ">", ")", "]", "}":
          depth -= 1
          if depth == 0 {
            guard token.value == ">", tokens[index + 1].isPunctuation("(") else { return nil }
            return TypeArguments(
              firstToken: position + 1, endToken: index,
              text: source.text(from: open.end, to: token.start).trimmingCharacters(in: .whitespacesAndNewlines))
          }
          if depth < 0 { return nil }
        case ";" where depth <= 1:
          return nil
        default: break
        }
      }
      index += 1
    }
    return nil
  }

  private mutating func parseArguments() throws(Diagnostic) -> [Expression] {
    advance()
    var arguments: [Expression] = []
    while !current.isPunctuation(")") {
      if current.isPunctuation("...") {
        let token = current
        advance()
        _ = try parseExpression()
        arguments.append(.unsupported("a spread argument", at: token.start))
      } else {
        arguments.append(try parseExpression())
      }
      if current.isPunctuation(",") {
        advance()
      } else if !current.isPunctuation(")") {
        throw error("expected `,` or `)` in the argument list, found \(current.display)", at: current)
      }
    }
    advance()
    return arguments
  }

  private mutating func parseArray() throws(Diagnostic) -> Expression {
    let open = current
    advance()
    var elements: [Expression] = []
    while !current.isPunctuation("]") {
      if current.isPunctuation(",") {
        advance()
        continue
      }
      if current.isPunctuation("...") {
        let token = current
        advance()
        _ = try parseExpression()
        elements.append(.unsupported("a spread element", at: token.start))
      } else {
        elements.append(try parseExpression())
      }
      if current.isPunctuation(",") {
        advance()
      } else if !current.isPunctuation("]") {
        throw error("expected `,` or `]` in the array, found \(current.display)", at: current)
      }
    }
    advance()
    return .array(elements, at: open.start)
  }

  private mutating func parseObject() throws(Diagnostic) -> Expression {
    let open = current
    advance()
    var properties: [Property] = []
    while !current.isPunctuation("}") {
      let keyToken = current
      if keyToken.isPunctuation("...") {
        advance()
        properties.append(.spread(try parseExpression(), at: keyToken.start))
      } else if keyToken.isPunctuation("[") {
        skipBalanced()
        if current.isPunctuation(":") {
          advance()
          _ = try parseExpression()
        } else {
          skipMethodRest()
        }
        properties.append(.unsupported("a computed key `[…]:`", at: keyToken.start))
      } else {
        guard keyToken.kind == .identifier || keyToken.kind == .string || keyToken.kind == .number else {
          if keyToken.kind == .endOfFile {
            throw error("expected `}` to close the object opened at \(source.location(of: open)), found end of file", at: keyToken)
          }
          throw error("expected a property name or `}`, found \(keyToken.display)", at: keyToken)
        }
        advance()
        var key = keyToken.value
        if keyToken.kind == .number, let value = Self.number(key) {
          key = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        if current.isPunctuation(":") {
          advance()
          let value = try parseExpression()
          properties.append(.pair(key: key, keyOffset: keyToken.start, value: value, doc: keyToken.docComment))
        } else if current.isPunctuation(",") || current.isPunctuation("}") {
          guard keyToken.kind == .identifier else {
            throw error("expected `:` after the property name \(keyToken.display), found \(current.display)", at: current)
          }
          properties.append(
            .pair(key: key, keyOffset: keyToken.start, value: .identifier(key, at: keyToken.start), doc: keyToken.docComment))
        } else if current.isPunctuation("(") || current.isPunctuation("<")
          || (keyToken.kind == .identifier && ["get", "set", "async"].contains(key) && current.kind == .identifier)
        {
          skipMethodRest()
          properties.append(.unsupported("an object method", at: keyToken.start))
        } else if current.isPunctuation("?") || current.isPunctuation("!") {
          throw error("expected `:` after the property name \(keyToken.display), found \(current.display)", at: current)
        } else {
          throw error("expected `:` after the property name \(keyToken.display), found \(current.display)", at: current)
        }
      }
      if current.isPunctuation(",") {
        advance()
      } else if !current.isPunctuation("}") {
        if current.kind == .endOfFile {
          throw error("expected `}` to close the object opened at \(source.location(of: open)), found end of file", at: current)
        }
        throw error("expected `,` or `}` after the property `\(keyToken.value)`, found \(current.display)", at: current)
      }
    }
    advance()
    return .object(properties, at: open.start)
  }

  private mutating func skipMethodRest() {
    while current.kind != .endOfFile, !current.isPunctuation("{"), !current.isPunctuation(","), !current.isPunctuation("}") {
      if current.isPunctuation("(") || current.isPunctuation("[") { skipBalanced() } else { advance() }
    }
    if current.isPunctuation("{") { skipBalanced() }
  }
}
