import Foundation

/// A lexer for the TypeScript subset that schema files use.
///
/// It keeps `>` characters apart (so `Array<Array<T>>` closes twice), records line breaks
/// before tokens, and collects documentation comments for the token that follows them.
struct Lexer {
  struct Failure: Error {
    var offset: Int
    var message: String
  }

  private let bytes: [UInt8]
  private var index = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private static let multiCharacterPunctuation: [String] = [
    "...", "===", "!==", "**=", "=>", "?.", "??", "&&", "||", "==", "!=", "<=", "++", "--", "+=", "-=", "*=",
    "/=", "**", "<<",
  ]

  private static let multiCharacterPunctuationBytes = multiCharacterPunctuation.map { ($0, Array($0.utf8)) }

  mutating func tokenize() throws(Failure) -> [Token] {
    var tokens: [Token] = []
    tokens.reserveCapacity(bytes.count / 4)
    while true {
      let trivia = try skipTrivia(afterFirstToken: !tokens.isEmpty)
      guard index < bytes.count else {
        tokens.append(
          Token(kind: .endOfFile, value: "", start: index, end: index, newlineBefore: true, docComment: nil))
        return tokens
      }
      var token =
        if bytes[index] == UInt8(ascii: "/"), Self.allowsRegularExpression(after: tokens.last) {
          try readRegularExpression()
        } else {
          try nextToken()
        }
      token.newlineBefore = trivia.newline || tokens.isEmpty
      token.docComment = trivia.doc
      tokens.append(token)
    }
  }

  private func peek(_ offset: Int = 0) -> UInt8 {
    let position = index + offset
    return position < bytes.count ? bytes[position] : 0
  }

  private mutating func skipTrivia(afterFirstToken: Bool) throws(Failure) -> (newline: Bool, doc: String?) {
    var newline = false
    var doc: String?
    var lineComments: [String] = []
    var newlinesSinceComment = 0
    var commentOnOwnLine = !afterFirstToken
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\n"):
        newline = true
        commentOnOwnLine = true
        newlinesSinceComment += 1
        if newlinesSinceComment > 1 {
          lineComments.removeAll()
          doc = nil
        }
        index += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
        index += 1
      case 0xC2 where peek(1) == 0xA0:
        index += 2
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
        let start = index + 2
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if commentOnOwnLine {
          if newlinesSinceComment > 1 { lineComments.removeAll() }
          lineComments.append(text)
          doc = nil
        }
        newlinesSinceComment = 0
      case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
        let start = index
        index += 2
        while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) {
          if bytes[index] == UInt8(ascii: "\n") { newline = true }
          index += 1
        }
        guard index < bytes.count else {
          throw Failure(offset: start, message: "unterminated block comment: expected `*/`")
        }
        index += 2
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if text.hasPrefix("/**"), text != "/**/" {
          doc = Self.cleanBlockComment(text)
          lineComments.removeAll()
        }
        newlinesSinceComment = 0
      default:
        let lineDoc = Self.cleanLineComments(lineComments)
        return (newline, doc ?? lineDoc)
      }
    }
    return (newline, nil)
  }

  static func cleanBlockComment(_ text: String) -> String? {
    let body = text.dropFirst(3).dropLast(2)
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      var trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("*") { trimmed.removeFirst() }
      return trimmed.trimmingCharacters(in: .whitespaces)
    }
    return joinDocLines(lines)
  }

  static func cleanLineComments(_ comments: [String]) -> String? {
    guard !comments.isEmpty else { return nil }
    let lines = comments.map { line -> String in
      var text = Substring(line)
      while text.first == "/" { text = text.dropFirst() }
      return text.trimmingCharacters(in: .whitespaces)
    }
    for line in lines where looksLikeCodeOrDirective(line) { return nil }
    return joinDocLines(lines)
  }

  private static func looksLikeCodeOrDirective(_ line: String) -> Bool {
    if line.hasPrefix("eslint") || line.hasPrefix("@ts-") || line.hasPrefix("prettier-ignore") { return true }
    if line.hasPrefix("Docs:") || line.contains("instantdb.com/dash") { return true }
    if line.contains("i.") && line.contains("(") && line.contains(")") { return true }
    if let last = line.last, ",{};".contains(last) { return true }
    return false
  }

  private static func joinDocLines(_ lines: [String]) -> String? {
    var lines = lines
    while let first = lines.first, first.isEmpty { lines.removeFirst() }
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
  }

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private mutating func nextToken() throws(Failure) -> Token {
    let start = index
    let byte = bytes[index]
    func make(_ kind: Token.Kind, _ value: String) -> Token {
      Token(kind: kind, value: value, start: start, end: index, newlineBefore: false, docComment: nil)
    }
    if Self.isIdentifierStart(byte) {
      while index < bytes.count, Self.isIdentifierStart(bytes[index]) || Self.isDigit(bytes[index]) { index += 1 }
      return make(.identifier, String(decoding: bytes[start..<index], as: UTF8.self))
    }
    if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && Self.isDigit(peek(1))) {
      while index < bytes.count,
        Self.isIdentifierStart(bytes[index]) || Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ".")
      {
        index += 1
      }
      return make(.number, String(decoding: bytes[start..<index], as: UTF8.self))
    }
    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
      return make(.string, try readString(quote: byte))
    }
    if byte == UInt8(ascii: "`") {
      let (text, substituted) = try readTemplate()
      return make(substituted ? .templateWithSubstitution : .template, text)
    }
    for (punctuation, utf8) in Self.multiCharacterPunctuationBytes where utf8[0] == byte {
      if index + utf8.count <= bytes.count, bytes[index..<index + utf8.count].elementsEqual(utf8) {
        // `?.` followed by a digit is a conditional followed by a number.
        if punctuation == "?.", Self.isDigit(peek(2)) { continue }
        index += utf8.count
        return make(.punctuation, punctuation)
      }
    }
    index += 1
    if byte >= 0x80 {
      throw Failure(offset: start, message: "unexpected character")
    }
    return make(.punctuation, String(UnicodeScalar(byte)))
  }

  /// Whether a `/` after `previous` starts a regular expression rather than a division.
  private static func allowsRegularExpression(after previous: Token?) -> Bool {
    guard let previous else { return true }
    switch previous.kind {
    case .punctuation: return ![")", "]", "}"].contains(previous.value)
    case .identifier: return ["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"].contains(previous.value)
    default: return false
    }
  }

  private mutating func readRegularExpression() throws(Failure) -> Token {
    let start = index
    index += 1
    var inClass = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") { break }
      if byte == UInt8(ascii: "\\") {
        index += 2
        continue
      }
      if byte == UInt8(ascii: "[") { inClass = true }
      if byte == UInt8(ascii: "]") { inClass = false }
      index += 1
      if byte == UInt8(ascii: "/"), !inClass {
        while index < bytes.count, Self.isIdentifierStart(bytes[index]) { index += 1 }
        return Token(
          kind: .regularExpression, value: String(decoding: bytes[start..<index], as: UTF8.self), start: start, end: index,
          newlineBefore: false, docComment: nil)
      }
    }
    throw Failure(offset: start, message: "unterminated regular expression: expected a closing `/`")
  }

  private mutating func readString(quote: UInt8) throws(Failure) -> String {
    let start = index
    index += 1
    var scalars: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote {
        index += 1
        return String(decoding: scalars, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\n") { break }
      if byte == UInt8(ascii: "\\") {
        index += 1
        try readEscape(into: &scalars)
        continue
      }
      scalars.append(byte)
      index += 1
    }
    throw Failure(offset: start, message: "unterminated string literal: expected a closing \(Character(UnicodeScalar(quote)))")
  }

  private mutating func readEscape(into scalars: inout [UInt8]) throws(Failure) {
    guard index < bytes.count else { return }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "n"): scalars.append(UInt8(ascii: "\n"))
    case UInt8(ascii: "t"): scalars.append(UInt8(ascii: "\t"))
    case UInt8(ascii: "r"): scalars.append(UInt8(ascii: "\r"))
    case UInt8(ascii: "0"): scalars.append(0)
    case UInt8(ascii: "b"): scalars.append(8)
    case UInt8(ascii: "f"): scalars.append(12)
    case UInt8(ascii: "v"): scalars.append(11)
    case UInt8(ascii: "\n"): break
    case UInt8(ascii: "u"), UInt8(ascii: "x"):
      var hex = ""
      if byte == UInt8(ascii: "u"), peek() == UInt8(ascii: "{") {
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
          hex.append(Character(UnicodeScalar(bytes[index])))
          index += 1
        }
        index += 1
      } else {
        let count = byte == UInt8(ascii: "u") ? 4 : 2
        for _ in 0..<count where index < bytes.count {
          hex.append(Character(UnicodeScalar(bytes[index])))
          index += 1
        }
      }
      guard let value = UInt32(hex, radix: 16), let scalar = UnicodeScalar(value) else {
        throw Failure(offset: index, message: "invalid escape sequence `\\\(Character(UnicodeScalar(byte)))\(hex)`")
      }
      scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
    default: scalars.append(byte)
    }
  }

  private mutating func readTemplate() throws(Failure) -> (String, Bool) {
    let start = index
    index += 1
    var scalars: [UInt8] = []
    var substituted = false
    var depth = 0
    while index < bytes.count {
      let byte = bytes[index]
      if depth == 0, byte == UInt8(ascii: "`") {
        index += 1
        return (String(decoding: scalars, as: UTF8.self), substituted)
      }
      if depth == 0, byte == UInt8(ascii: "\\") {
        index += 1
        try readEscape(into: &scalars)
        continue
      }
      if byte == UInt8(ascii: "$"), peek(1) == UInt8(ascii: "{") {
        substituted = true
        depth += 1
        index += 2
        continue
      }
      if depth > 0, byte == UInt8(ascii: "}") { depth -= 1 }
      if depth == 0 { scalars.append(byte) }
      index += 1
    }
    throw Failure(offset: start, message: "unterminated template literal: expected a closing `")
  }
}
