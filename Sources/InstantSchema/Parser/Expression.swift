/// An expression of the TypeScript subset, before interpretation.
///
/// Constructs the schema cannot contain are kept as ``Kind/unsupported(_:)`` so that the error
/// is raised only when the schema actually reaches them (runtime code elsewhere in the file is
/// fine).
indirect enum Expression: Sendable {
  case object([Property], at: Int)
  case array([Expression], at: Int)
  case string(String, at: Int)
  case number(Double, at: Int)
  case boolean(Bool, at: Int)
  case null(at: Int)
  case identifier(String, at: Int)
  case member(Expression, String, at: Int)
  case call(Expression, typeArguments: TypeArguments?, arguments: [Expression], at: Int)
  case unsupported(String, at: Int)

  var offset: Int {
    switch self {
    case .object(_, let at), .array(_, let at), .string(_, let at), .number(_, let at), .boolean(_, let at),
      .null(let at), .identifier(_, let at), .member(_, _, let at), .call(_, _, _, let at),
      .unsupported(_, let at):
      at
    }
  }

  /// The offset where the whole expression starts (the `i` of `i.string().optional()`).
  var startOffset: Int {
    switch self {
    case .member(let base, _, _), .call(let base, _, _, _): base.startOffset
    default: offset
    }
  }

  /// A short description for "found …" in error messages.
  var kindDescription: String {
    switch self {
    case .object: "an object literal"
    case .array: "an array literal"
    case .string(let value, _): "the string \"\(value)\""
    case .number(let value, _): "the number \(value)"
    case .boolean(let value, _): "`\(value)`"
    case .null: "`null`"
    case .identifier(let name, _): "`\(name)`"
    case .member(_, let name, _): "a member access `.\(name)`"
    case .call: "a function call"
    case .unsupported(let what, _): what
    }
  }
}
