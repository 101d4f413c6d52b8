/// A lexical token of CEL source.
struct Token: Equatable {
  enum Kind: Equatable {
    case identifier(String)
    /// An integer literal's magnitude; the parser decides whether it fits an `int` (only
    /// 9223372036854775808 needs the minus sign in front of it).
    case int(UInt64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case trueLiteral, falseLiteral, nullLiteral
    case inKeyword
    case punctuation(String)
    case end
  }

  let kind: Kind
  /// Offset of the first Unicode scalar of the token in the source.
  let offset: Int

  func isPunctuation(_ text: String) -> Bool { kind == .punctuation(text) }

  /// The token as a message names it: `')'`, `identifier 'foo'`, `end of input`.
  var display: String {
    switch kind {
    case .identifier(let name): "'\(name)'"
    case .int(let v): "'\(v)'"
    case .uint(let v): "'\(v)u'"
    case .double(let v): "'\(v)'"
    case .string: "string literal"
    case .bytes: "bytes literal"
    case .trueLiteral: "'true'"
    case .falseLiteral: "'false'"
    case .nullLiteral: "'null'"
    case .inKeyword: "'in'"
    case .punctuation(let p): "'\(p)'"
    case .end: "end of input"
    }
  }
}
