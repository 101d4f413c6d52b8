/// Parses a TypeScript type (a type argument or the right side of a `type` declaration) into a
/// ``TypeExpression``, asking `resolve` for the meaning of named types.
struct TypeParser {
  let source: SourceFile
  var position: Int
  let end: Int
  let resolve: (String, [TypeExpression]) -> TypeExpression

  var tokens: [Token] { source.tokens }
  var current: Token { position < end ? tokens[position] : Token(kind: .endOfFile, value: "", start: 0, end: 0, newlineBefore: true) }
  mutating func advance() { position += 1 }

  init(source: SourceFile, from first: Int, to end: Int, resolve: @escaping (String, [TypeExpression]) -> TypeExpression) {
    self.source = source
    self.position = first
    self.end = end
    self.resolve = resolve
  }

  mutating func parseAll() -> TypeExpression {
    let type = parseType()
    if position < end {
      return .opaque(source.text(from: tokens[min(end, tokens.count) - 1].start, to: tokens[min(end, tokens.count) - 1].end))
    }
    return type
  }

  mutating func parseType() -> TypeExpression {
    let startToken = position
    if current.isPunctuation("|") || current.isPunctuation("&") { advance() }
    var members = [parseIntersection()]
    while current.isPunctuation("|") {
      advance()
      members.append(parseIntersection())
    }
    if current.isIdentifier("extends") {
      skipToEnd(stopAt: [",", ">", ";", ")", "]", "}"])
      return .opaque("a conditional type `\(text(from: startToken))`")
    }
    return members.count == 1 ? members[0] : .union(members)
  }

  private func text(from startToken: Int) -> String {
    guard startToken < position, position - 1 < tokens.count else { return "" }
    return source.text(from: tokens[startToken].start, to: tokens[position - 1].end)
  }

  private mutating func skipToEnd(stopAt: Set<String>) {
    var depth = 0
    while position < end {
      let token = current
      if token.kind == .punctuation {
        if depth == 0, stopAt.contains(token.value) { return }
        if ["(", "[", "{", "<"].contains(token.value) { depth += 1 }
        if [")", "]", "}", ">"].contains(token.value) { depth -= 1 }
      }
      advance()
    }
  }

  private mutating func parseIntersection() -> TypeExpression {
    let startToken = position
    let first = parsePostfix()
    guard current.isPunctuation("&") else { return first }
    while current.isPunctuation("&") {
      advance()
      _ = parsePostfix()
    }
    return .opaque("an intersection type `\(text(from: startToken))`")
  }

  private mutating func parsePostfix() -> TypeExpression {
    let startToken = position
    var type = parsePrimary()
    while current.isPunctuation("["), !current.newlineBefore {
      advance()
      if current.isPunctuation("]") {
        advance()
        type = .array(type)
      } else {
        skipToEnd(stopAt: ["]"])
        advance()
        type = .opaque("an indexed access type `\(text(from: startToken))`")
      }
    }
    return type
  }

  private mutating func parseArguments() -> [TypeExpression] {
    guard current.isPunctuation("<") else { return [] }
    advance()
    var arguments: [TypeExpression] = []
    while position < end, !current.isPunctuation(">") {
      arguments.append(parseType())
      if current.isPunctuation(",") { advance() } else if !current.isPunctuation(">") { break }
    }
    if current.isPunctuation(">") { advance() }
    return arguments
  }

  private mutating func parsePrimary() -> TypeExpression {
    let token = current
    let startToken = position
    switch token.kind {
    case .string:
      advance()
      return .stringLiteral(token.value)
    case .template, .templateWithSubstitution:
      advance()
      return .string
    case .number:
      advance()
      return .numberLiteral(ExpressionParser.number(token.value) ?? 0)
    case .endOfFile:
      return .opaque("a missing type")
    case .regularExpression:
      advance()
      return .opaque("a regular expression")
    case .punctuation:
      switch token.value {
      case "-":
        advance()
        let number = current
        advance()
        return .numberLiteral(-(ExpressionParser.number(number.value) ?? 0))
      case "(":
        var depth = 0
        var index = position
        while index < end {
          if tokens[index].isPunctuation("(") { depth += 1 }
          if tokens[index].isPunctuation(")") {
            depth -= 1
            if depth == 0 { break }
          }
          index += 1
        }
        if index + 1 < end, tokens[index + 1].isPunctuation("=>") {
          position = index + 2
          _ = parseType()
          return .opaque("a function type `\(text(from: startToken))`")
        }
        advance()
        let inner = parseType()
        if current.isPunctuation(")") { advance() }
        return inner
      case "{":
        return parseObject()
      case "[":
        advance()
        var elements: [TypeExpression] = []
        while position < end, !current.isPunctuation("]") {
          if current.isPunctuation("...") { advance() }
          if current.kind == .identifier, tokens[min(position + 1, end)].isPunctuation(":") {
            advance()
            advance()
          }
          elements.append(parseType())
          if current.isPunctuation("?") { advance() }
          if current.isPunctuation(",") { advance() } else { break }
        }
        if current.isPunctuation("]") { advance() }
        let unique = Set(elements)
        return .array(unique.count == 1 ? elements[0] : .any)
      default:
        advance()
        return .opaque("`\(token.value)`")
      }
    case .identifier:
      advance()
      switch token.value {
      case "string": return .string
      case "number", "bigint": return .number
      case "boolean": return .boolean
      case "true": return .booleanLiteral(true)
      case "false": return .booleanLiteral(false)
      case "null", "undefined", "void": return .null
      case "any", "unknown", "object": return .any
      case "never": return .opaque("`never`")
      case "readonly": return parsePostfix()
      case "typeof", "keyof", "unique", "infer":
        _ = parsePostfix()
        return .opaque("`\(text(from: startToken))`")
      default:
        var name = token.value
        while current.isPunctuation("."), tokens[min(position + 1, end)].kind == .identifier {
          advance()
          name += "." + current.value
          advance()
        }
        let arguments = parseArguments()
        switch (name, arguments.count) {
        case ("Array", 1), ("ReadonlyArray", 1): return .array(arguments[0])
        case ("Record", 2): return .record(arguments[1])
        case ("Readonly", 1), ("NonNullable", 1): return arguments[0]
        default: return resolve(name, arguments)
        }
      }
    }
  }

  private mutating func parseObject() -> TypeExpression {
    advance()
    var members: [TypeMember] = []
    var indexValue: TypeExpression?
    while position < end, !current.isPunctuation("}") {
      let keyToken = current
      if keyToken.isIdentifier("readonly"), tokens[min(position + 1, end)].kind != .punctuation || tokens[min(position + 1, end)].isPunctuation("[") {
        advance()
        continue
      }
      if keyToken.isPunctuation("[") {
        advance()
        skipToEnd(stopAt: [":", "]"])
        if current.isPunctuation(":") {
          advance()
          _ = parseType()
        } else if current.isIdentifier("in") {
          skipToEnd(stopAt: ["]"])
        }
        if current.isPunctuation("]") { advance() }
        if current.isPunctuation("?") { advance() }
        if current.isPunctuation(":") {
          advance()
          indexValue = parseType()
        }
      } else if keyToken.kind == .identifier || keyToken.kind == .string || keyToken.kind == .number {
        advance()
        var optional = false
        if current.isPunctuation("?") {
          optional = true
          advance()
        }
        if current.isPunctuation(":") {
          advance()
          members.append(TypeMember(name: keyToken.value, isOptional: optional, type: parseType(), documentation: keyToken.docComment))
        } else {
          skipToEnd(stopAt: [";", ",", "}"])
        }
      } else {
        skipToEnd(stopAt: [";", ",", "}"])
      }
      while current.isPunctuation(";") || current.isPunctuation(",") { advance() }
    }
    if current.isPunctuation("}") { advance() }
    if let indexValue, members.isEmpty { return .record(indexValue) }
    if members.isEmpty { return .any }
    return .object(members)
  }
}
