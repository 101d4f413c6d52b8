/// One lexical token of a TypeScript schema file.
struct Token: Sendable {
  enum Kind: Sendable, Equatable {
    case identifier
    case string
    /// A template literal without `${…}`; its text is in `value`.
    case template
    /// A template literal with a `${…}` substitution, which a schema cannot contain.
    case templateWithSubstitution
    case number
    /// A regular expression literal, which can only appear in code the schema does not use.
    case regularExpression
    case punctuation
    case endOfFile
  }

  var kind: Kind
  /// The identifier, punctuation, number text or decoded string value.
  var value: String
  /// UTF-8 offsets of the token in the source.
  var start: Int
  var end: Int
  /// Whether a line break separates this token from the previous one (for semicolon-less code).
  var newlineBefore: Bool
  /// The documentation comment (`/** … */` or own-line `//` lines) right before the token.
  var docComment: String?

  func isPunctuation(_ text: String) -> Bool { kind == .punctuation && value == text }
  func isIdentifier(_ text: String) -> Bool { kind == .identifier && value == text }

  /// A short description for "found …" in error messages.
  var display: String {
    switch kind {
    case .identifier: "`\(value)`"
    case .string: "string \"\(value)\""
    case .template, .templateWithSubstitution: "template literal"
    case .number: "number \(value)"
    case .regularExpression: "regular expression"
    case .punctuation: "`\(value)`"
    case .endOfFile: "end of file"
    }
  }
}
