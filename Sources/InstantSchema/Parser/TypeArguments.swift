/// The raw `<…>` of a call such as `i.json<{ a: string }>()`, kept as tokens for the type parser.
struct TypeArguments: Sendable {
  /// Token indexes of the first token inside `<` and of the closing `>`.
  var firstToken: Int
  var endToken: Int
  /// The source text between the angle brackets.
  var text: String
}
