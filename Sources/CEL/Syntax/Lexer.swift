/// A problem found while reading or compiling source, before the line and column are known.
struct SourceError: Error {
  let message: String
  let offset: Int
}

/// Splits CEL source into tokens, decoding literals (escapes, numbers) on the way.
struct Lexer {
  private let source: [Unicode.Scalar]
  private var position = 0

  init(_ source: [Unicode.Scalar]) { self.source = source }

  static func tokenize(_ source: [Unicode.Scalar]) throws(SourceError) -> [Token] {
    var lexer = Lexer(source)
    var tokens: [Token] = []
    while true {
      let token = try lexer.next()
      tokens.append(token)
      if token.kind == .end { return tokens }
    }
  }

  private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
    position + ahead < source.count ? source[position + ahead] : nil
  }

  private static let punctuation: [String] = [
    "==", "!=", "<=", ">=", "&&", "||",
    "(", ")", "[", "]", "{", "}", ".", ",", ":", "?", "+", "-", "*", "/", "%", "!", "<", ">",
  ]

  mutating func next() throws(SourceError) -> Token {
    skipSpaceAndComments()
    let start = position
    guard let c = peek() else { return Token(kind: .end, offset: start) }

    if let quoted = try stringLiteral() { return Token(kind: quoted, offset: start) }
    if isIdentifierStart(c) {
      var name = ""
      while let d = peek(), isIdentifierStart(d) || isDigit(d) {
        name.unicodeScalars.append(d)
        position += 1
      }
      let kind: Token.Kind =
        switch name {
        case "true": .trueLiteral
        case "false": .falseLiteral
        case "null": .nullLiteral
        case "in": .inKeyword
        default: .identifier(name)
        }
      return Token(kind: kind, offset: start)
    }
    if isDigit(c) || (c == "." && peek(1).map(isDigit) == true) {
      return Token(kind: try number(), offset: start)
    }
    for p in Self.punctuation where matches(p) {
      position += p.unicodeScalars.count
      return Token(kind: .punctuation(p), offset: start)
    }
    if c == "=" { throw SourceError(message: "unexpected '=' (use '==' to compare)", offset: start) }
    if c == "&" || c == "|" {
      throw SourceError(message: "unexpected '\(c)' (use '\(c)\(c)')", offset: start)
    }
    throw SourceError(message: "unexpected character '\(c.escaped(asASCII: true))'", offset: start)
  }

  private func matches(_ text: String) -> Bool {
    var i = 0
    for scalar in text.unicodeScalars {
      guard peek(i) == scalar else { return false }
      i += 1
    }
    return true
  }

  private mutating func skipSpaceAndComments() {
    while let c = peek() {
      if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" {
        position += 1
      } else if c == "/" && peek(1) == "/" {
        while let d = peek(), d != "\n" { position += 1 }
      } else {
        return
      }
    }
  }

  private func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
  }

  private func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

  private func isHexDigit(_ c: Unicode.Scalar) -> Bool {
    isDigit(c) || ("a"..."f").contains(c) || ("A"..."F").contains(c)
  }

  // MARK: Numbers

  private mutating func number() throws(SourceError) -> Token.Kind {
    let start = position
    if peek() == "0", peek(1) == "x" || peek(1) == "X" {
      position += 2
      var digits = ""
      while let c = peek(), isHexDigit(c) {
        digits.unicodeScalars.append(c)
        position += 1
      }
      guard !digits.isEmpty else { throw SourceError(message: "hexadecimal literal without digits", offset: start) }
      guard let magnitude = UInt64(digits, radix: 16) else {
        throw SourceError(message: "integer literal out of range", offset: start)
      }
      return try integerSuffix(magnitude)
    }
    var text = ""
    var isDouble = false
    while let c = peek(), isDigit(c) {
      text.unicodeScalars.append(c)
      position += 1
    }
    if peek() == ".", let after = peek(1), isDigit(after) {
      isDouble = true
      text += "."
      position += 1
      while let c = peek(), isDigit(c) {
        text.unicodeScalars.append(c)
        position += 1
      }
    }
    if let e = peek(), e == "e" || e == "E" {
      var lookahead = 1
      if let sign = peek(1), sign == "+" || sign == "-" { lookahead = 2 }
      if let d = peek(lookahead), isDigit(d) {
        isDouble = true
        text += "e"
        if lookahead == 2 { text.unicodeScalars.append(peek(1)!) }
        position += lookahead
        while let c = peek(), isDigit(c) {
          text.unicodeScalars.append(c)
          position += 1
        }
      }
    }
    if isDouble {
      guard let value = Double(text) else { throw SourceError(message: "malformed number '\(text)'", offset: start) }
      return .double(value)
    }
    guard let magnitude = UInt64(text, radix: 10) else {
      throw SourceError(message: "integer literal out of range", offset: start)
    }
    return try integerSuffix(magnitude)
  }

  private mutating func integerSuffix(_ magnitude: UInt64) throws(SourceError) -> Token.Kind {
    if let u = peek(), u == "u" || u == "U" {
      position += 1
      return .uint(magnitude)
    }
    return .int(magnitude)
  }

  // MARK: Strings and bytes

  /// A string or bytes literal starting here (with its `r`/`b` prefixes), or nil if none does.
  private mutating func stringLiteral() throws(SourceError) -> Token.Kind? {
    var raw = false
    var bytes = false
    var prefixLength = 0
    while prefixLength < 2, let c = peek(prefixLength) {
      if (c == "r" || c == "R") && !raw {
        raw = true
      } else if (c == "b" || c == "B") && !bytes {
        bytes = true
      } else {
        break
      }
      prefixLength += 1
    }
    guard let quote = peek(prefixLength), quote == "'" || quote == "\"" else { return nil }
    let start = position
    position += prefixLength
    let triple = peek(1) == quote && peek(2) == quote
    position += triple ? 3 : 1

    var scalars: [Unicode.Scalar] = []
    var octets: [UInt8] = []
    func append(_ scalar: Unicode.Scalar) {
      if bytes { octets.append(contentsOf: Array(String(scalar).utf8)) } else { scalars.append(scalar) }
    }
    while true {
      guard let c = peek() else {
        throw SourceError(message: "unterminated \(bytes ? "bytes" : "string") literal", offset: start)
      }
      if c == quote && (!triple || (peek(1) == quote && peek(2) == quote)) {
        position += triple ? 3 : 1
        break
      }
      if !triple && (c == "\n" || c == "\r") {
        throw SourceError(message: "newline in \(bytes ? "bytes" : "string") literal (use ''' or \"\"\" for several lines)", offset: position)
      }
      if c == "\\" && !raw {
        let escapeStart = position
        position += 1
        switch try escape(bytes: bytes, at: escapeStart) {
        case .scalar(let s): append(s)
        case .octet(let o):
          if bytes { octets.append(o) } else { scalars.append(Unicode.Scalar(o)) }
        }
      } else {
        append(c)
        position += 1
      }
    }
    if bytes { return .bytes(octets) }
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    return .string(text)
  }

  private enum Escaped {
    case scalar(Unicode.Scalar)
    /// `\xHH` or `\ooo`: a byte in bytes literals, the code point of that value in strings.
    case octet(UInt8)
  }

  private mutating func escape(bytes: Bool, at start: Int) throws(SourceError) -> Escaped {
    guard let c = peek() else { throw SourceError(message: "unterminated escape sequence", offset: start) }
    position += 1
    switch c {
    case "\\", "?", "\"", "'", "`": return .scalar(c)
    case "a": return .scalar("\u{07}")
    case "b": return .scalar("\u{08}")
    case "f": return .scalar("\u{0C}")
    case "n": return .scalar("\n")
    case "r": return .scalar("\r")
    case "t": return .scalar("\t")
    case "v": return .scalar("\u{0B}")
    case "x", "X":
      return .octet(UInt8(try hexDigits(2, at: start)))
    case "u", "U":
      if bytes {
        throw SourceError(message: "\\\(c) escapes are not allowed in bytes literals", offset: start)
      }
      let value = try hexDigits(c == "u" ? 4 : 8, at: start)
      guard let scalar = Unicode.Scalar(value) else {
        throw SourceError(message: "invalid Unicode code point in escape sequence", offset: start)
      }
      return .scalar(scalar)
    case "0"..."3":
      var value = c.value - 48
      for _ in 0..<2 {
        guard let d = peek(), ("0"..."7").contains(d) else {
          throw SourceError(message: "octal escape needs three digits", offset: start)
        }
        value = value * 8 + d.value - 48
        position += 1
      }
      return .octet(UInt8(value))
    default:
      throw SourceError(message: "invalid escape sequence '\\\(c.escaped(asASCII: true))'", offset: start)
    }
  }

  private mutating func hexDigits(_ count: Int, at start: Int) throws(SourceError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<count {
      guard let d = peek(), isHexDigit(d), let digit = UInt32(String(d), radix: 16) else {
        throw SourceError(message: "escape sequence needs \(count) hexadecimal digits", offset: start)
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }
}
