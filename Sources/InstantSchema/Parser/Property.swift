/// A member of an object literal.
enum Property: Sendable {
  case pair(key: String, keyOffset: Int, value: Expression, doc: String?)
  case spread(Expression, at: Int)
  case unsupported(String, at: Int)
}
