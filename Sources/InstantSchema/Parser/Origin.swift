/// Where a value came from: a module and a UTF-8 offset in it.
struct Origin: Sendable {
  var module: Int
  var offset: Int
}
