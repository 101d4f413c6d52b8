/// Reads the top level of a module: imports, exports, constants and type declarations.
///
/// Statements it does not understand are skipped with balanced brackets; their contents only
/// matter if the schema refers to them, and then the interpreter reports them by name.
struct ModuleParser {
  let source: SourceFile
  var position = 0

  init(source: SourceFile) {
    self.source = source
  }

  var tokens: [Token] { source.tokens }
  var current: Token { tokens[position] }

  func lookahead(_ offset: Int) -> Token {
    tokens[min(position + offset, tokens.count - 1)]
  }

  mutating func advance() { if position < tokens.count - 1 { position += 1 } }

  func error(_ message: String, at token: Token) -> Diagnostic {
    .error(.syntax, message, at: source.location(of: token))
  }

  mutating func expect(_ punctuation: String, _ context: String) throws(Diagnostic) {
    guard current.isPunctuation(punctuation) else {
      throw error("expected `\(punctuation)` \(context), found \(current.display)", at: current)
    }
    advance()
  }

  static let statementKeywords: Set<String> = [
    "import", "export", "const", "let", "var", "type", "interface", "function", "class", "declare", "enum",
    "async", "abstract",
  ]

  var atStatementBoundary: Bool {
    current.newlineBefore && current.kind == .identifier && Self.statementKeywords.contains(current.value)
  }

  // MARK: Module

  mutating func parseModule() throws(Diagnostic) -> ModuleSyntax {
    var module = ModuleSyntax(source: source)
    while current.kind != .endOfFile {
      try parseStatement(into: &module)
    }
    return module
  }

  private mutating func parseStatement(into module: inout ModuleSyntax) throws(Diagnostic) {
    let token = current
    if token.isPunctuation(";") {
      advance()
      return
    }
    guard token.kind == .identifier else {
      skipStatement()
      return
    }
    switch token.value {
    case "import" where !token1IsCallOrMember:
      try parseImport(into: &module)
    case "export":
      advance()
      try parseExport(into: &module)
    case "const", "let", "var":
      try parseDeclaration(into: &module, exported: false)
    case "type" where lookahead(1).kind == .identifier && !lookahead(1).newlineBefore:
      parseTypeAlias(into: &module)
    case "interface" where lookahead(1).kind == .identifier:
      parseInterface(into: &module)
    default:
      skipStatement()
    }
  }

  private var token1IsCallOrMember: Bool {
    lookahead(1).isPunctuation("(") || lookahead(1).isPunctuation(".")
  }

  private mutating func parseImport(into module: inout ModuleSyntax) throws(Diagnostic) {
    advance()
    if current.kind == .string {
      advance()
      if current.isPunctuation(";") { advance() }
      return
    }
    // `import type { … }` binds the same names; type arguments may refer to them.
    if current.isIdentifier("type"), !lookahead(1).isPunctuation(","), !lookahead(1).isIdentifier("from") {
      advance()
    }
    var bindings: [(local: String, binding: (String) -> ModuleSyntax.Import)] = []
    if current.kind == .identifier, !current.isIdentifier("from") || lookahead(1).isIdentifier("from") {
      let name = current.value
      let at = current.start
      advance()
      bindings.append((name, { .defaultValue(module: $0, at: at) }))
      if current.isPunctuation(",") { advance() }
    }
    if current.isPunctuation("*") {
      advance()
      guard current.isIdentifier("as") else { throw error("expected `as` after `import *`, found \(current.display)", at: current) }
      advance()
      guard current.kind == .identifier else { throw error("expected a name after `import * as`, found \(current.display)", at: current) }
      let name = current.value
      let at = current.start
      advance()
      bindings.append((name, { .namespace(module: $0, at: at) }))
    } else if current.isPunctuation("{") {
      advance()
      while !current.isPunctuation("}") {
        if current.isIdentifier("type"), lookahead(1).kind == .identifier || lookahead(1).kind == .string,
          !lookahead(1).isIdentifier("as")
        {
          advance()
        }
        guard current.kind == .identifier || current.kind == .string else {
          throw error("expected an imported name or `}`, found \(current.display)", at: current)
        }
        let imported = current.value
        let at = current.start
        advance()
        var local = imported
        if current.isIdentifier("as") {
          advance()
          guard current.kind == .identifier else { throw error("expected a name after `as`, found \(current.display)", at: current) }
          local = current.value
          advance()
        }
        bindings.append((local, { imported == "default" ? .defaultValue(module: $0, at: at) : .named(module: $0, name: imported, at: at) }))
        if current.isPunctuation(",") { advance() } else if !current.isPunctuation("}") {
          throw error("expected `,` or `}` in the import list, found \(current.display)", at: current)
        }
      }
      advance()
    }
    guard current.isIdentifier("from") else {
      throw error("expected `from \"module\"` in the import, found \(current.display)", at: current)
    }
    advance()
    guard current.kind == .string else { throw error("expected a module path string after `from`, found \(current.display)", at: current) }
    let path = current.value
    advance()
    if current.isIdentifier("with") || current.isIdentifier("assert") { skipStatement() }
    if current.isPunctuation(";") { advance() }
    for (local, binding) in bindings { module.imports[local] = binding(path) }
  }

  private mutating func parseExport(into module: inout ModuleSyntax) throws(Diagnostic) {
    let token = current
    if token.isIdentifier("default") {
      advance()
      if current.isIdentifier("function") || current.isIdentifier("class") || current.isIdentifier("async") {
        module.defaultExport = .unsupported("a default-exported \(current.value)", at: current.start)
        skipStatement()
        return
      }
      var expressions = ExpressionParser(source: source, position: position)
      let expression = try expressions.parseExpression()
      position = expressions.position
      module.defaultExport = expression
      if current.isPunctuation(";") { advance() }
      return
    }
    if token.isPunctuation("{") {
      advance()
      var pairs: [(exported: String, local: String)] = []
      while !current.isPunctuation("}") {
        if current.isIdentifier("type"), self.lookahead(1).kind == .identifier, !self.lookahead(1).isIdentifier("as") { advance() }
        guard current.kind == .identifier || current.kind == .string else {
          throw error("expected an exported name or `}`, found \(current.display)", at: current)
        }
        let local = current.value
        advance()
        var exported = local
        if current.isIdentifier("as") {
          advance()
          exported = current.value
          advance()
        }
        pairs.append((exported, local))
        if current.isPunctuation(",") { advance() } else if !current.isPunctuation("}") {
          throw error("expected `,` or `}` in the export list, found \(current.display)", at: current)
        }
      }
      advance()
      var from: String?
      if current.isIdentifier("from") {
        advance()
        from = current.value
        advance()
      }
      if current.isPunctuation(";") { advance() }
      for pair in pairs {
        if let from {
          module.exports[pair.exported] = .reexport(module: from, name: pair.local)
        } else {
          module.exports[pair.exported] = .local(pair.local)
        }
      }
      return
    }
    if token.isPunctuation("*") {
      advance()
      if current.isIdentifier("as") {
        skipStatement()
        return
      }
      if current.isIdentifier("from") {
        advance()
        if current.kind == .string { module.starExports.append(current.value) }
      }
      skipStatement()
      return
    }
    if token.isIdentifier("const") || token.isIdentifier("let") || token.isIdentifier("var") {
      try parseDeclaration(into: &module, exported: true)
      return
    }
    if token.isIdentifier("type"), self.lookahead(1).kind == .identifier {
      parseTypeAlias(into: &module)
      return
    }
    if token.isIdentifier("interface") {
      parseInterface(into: &module)
      return
    }
    skipStatement()
  }

  private mutating func parseDeclaration(into module: inout ModuleSyntax, exported: Bool) throws(Diagnostic) {
    advance()
    while true {
      guard current.kind == .identifier else {
        // Destructuring patterns cannot define schema parts; skip them.
        skipStatement()
        return
      }
      let name = current.value
      advance()
      if current.isPunctuation("!") { advance() }
      if current.isPunctuation(":") {
        advance()
        skipType(stopAt: ["=", ";", ","])
      }
      if current.isPunctuation("=") {
        advance()
        var expressions = ExpressionParser(source: source, position: position)
        let expression = try expressions.parseExpression()
        position = expressions.position
        if module.constants[name] == nil { module.constantOrder.append(name) }
        module.constants[name] = expression
        if exported { module.exports[name] = .local(name) }
      }
      if current.isPunctuation(",") {
        advance()
        continue
      }
      break
    }
    if current.isPunctuation(";") {
      advance()
    } else if current.kind != .endOfFile && !current.newlineBefore && !current.isPunctuation("}") {
      throw error("expected `;` or a new line after the declaration, found \(current.display)", at: current)
    }
  }

  private mutating func parseTypeAlias(into module: inout ModuleSyntax) {
    advance()
    let name = current.value
    advance()
    if current.isPunctuation("<") { skipAngles() }
    guard current.isPunctuation("=") else {
      skipStatement()
      return
    }
    advance()
    let first = position
    skipType(stopAt: [";"])
    module.types[name] = .init(firstToken: first, endToken: position, isInterface: false)
    if current.isPunctuation(";") { advance() }
  }

  private mutating func parseInterface(into module: inout ModuleSyntax) {
    advance()
    let name = current.value
    advance()
    while !current.isPunctuation("{"), current.kind != .endOfFile {
      if current.isPunctuation("<") { skipAngles() } else { advance() }
    }
    let first = position
    skipBalanced()
    module.types[name] = .init(firstToken: first, endToken: position, isInterface: true)
  }

  // MARK: Skipping

  /// Skips one balanced `(…)`, `[…]`, `{…}` or a single token.
  mutating func skipBalanced() {
    let open = current.value
    guard current.kind == .punctuation, let close = ["(": ")", "[": "]", "{": "}"][open] else {
      advance()
      return
    }
    advance()
    while current.kind != .endOfFile {
      if current.isPunctuation(close) {
        advance()
        return
      }
      if current.kind == .punctuation, ["(", "[", "{"].contains(current.value) {
        skipBalanced()
      } else {
        advance()
      }
    }
  }

  mutating func skipAngles() {
    var depth = 0
    repeat {
      if current.isPunctuation("<") { depth += 1 }
      if current.isPunctuation(">") { depth -= 1 }
      if current.kind == .punctuation, ["(", "[", "{"].contains(current.value) {
        skipBalanced()
        continue
      }
      advance()
    } while depth > 0 && current.kind != .endOfFile
  }

  /// Skips a type annotation up to one of `stopAt` outside brackets, or the next statement.
  mutating func skipType(stopAt: Set<String>) {
    var angles = 0
    let start = position
    while current.kind != .endOfFile {
      if position > start, atStatementBoundary { return }
      if current.kind == .punctuation {
        if angles == 0, stopAt.contains(current.value) { return }
        if angles == 0, [")", "]", "}"].contains(current.value) { return }
        switch current.value {
        case "<": angles += 1
        case ">": angles = max(0, angles - 1)
        case "(", "[", "{":
          skipBalanced()
          continue
        default: break
        }
      }
      advance()
    }
  }

  /// Skips a statement the schema does not need.
  mutating func skipStatement() {
    let start = position
    while current.kind != .endOfFile {
      if position > start, atStatementBoundary { return }
      if current.isPunctuation(";") {
        advance()
        return
      }
      if current.kind == .punctuation, ["(", "[", "{"].contains(current.value) {
        skipBalanced()
      } else {
        advance()
      }
    }
  }
}
