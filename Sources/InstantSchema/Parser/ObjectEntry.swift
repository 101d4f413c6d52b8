/// A property of an object value. Its value is evaluated only when the schema reaches it, so
/// that errors carry the schema path.
struct ObjectEntry: Sendable {
  var key: String
  var origin: Origin
  var expression: Expression
  var documentation: String?
}
