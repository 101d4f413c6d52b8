/// CEL's macros, expanded while parsing: `has(e.f)`, the list/map comprehensions `all`,
/// `exists`, `exists_one`, `map` and `filter`, and the bindings extension's `cel.bind` (which
/// InstantDB uses to implement a rule's `bind`). A call that matches no macro stays a call.
enum Macros {
  typealias MakeNode = (ExprKind, [Expr]) throws(SourceError) -> Expr

  static let comprehensionArities: [String: Set<Int>] = [
    "all": [2], "exists": [2], "exists_one": [2], "filter": [2], "map": [2, 3],
  ]

  static func global(_ name: String, _ args: [Expr], at offset: Int, _ make: MakeNode) throws(SourceError) -> Expr {
    guard name == "has" else { return try make(.call(name, args), args) }
    guard args.count == 1 else {
      throw SourceError(message: "has() takes one argument, a field selection like has(m.f)", offset: offset)
    }
    guard case .select(let operand, let field) = args[0].kind else {
      throw SourceError(message: "has() needs a field selection like has(m.f)", offset: args[0].start)
    }
    return try make(.presence(operand, field), [operand])
  }

  static func method(_ target: Expr, _ name: String, _ args: [Expr], at offset: Int, _ make: MakeNode) throws(SourceError) -> Expr {
    if name == "bind", case .identifier("cel", rooted: false) = target.kind {
      guard args.count == 3 else {
        throw SourceError(message: "cel.bind() takes three arguments: a name, a value and an expression", offset: offset)
      }
      let variable = try simpleName(args[0], "the first argument of cel.bind()")
      return try make(.bind(variable, args[1], args[2]), [args[1], args[2]])
    }
    guard let arities = comprehensionArities[name] else { return try make(.method(target, name, args), [target] + args) }
    guard arities.contains(args.count) else {
      let shape = name == "map" ? "a name and an expression (or a name, a filter and an expression)" : "a name and a predicate"
      throw SourceError(message: "\(name)() takes \(shape), like xs.\(name)(x, …)", offset: offset)
    }
    let variable = try simpleName(args[0], "the first argument of \(name)()")
    let comprehension: Comprehension
    switch name {
    case "all": comprehension = Comprehension(kind: .all, variable: variable, range: target, predicate: args[1], transform: nil)
    case "exists": comprehension = Comprehension(kind: .exists, variable: variable, range: target, predicate: args[1], transform: nil)
    case "exists_one":
      comprehension = Comprehension(kind: .existsOne, variable: variable, range: target, predicate: args[1], transform: nil)
    case "filter": comprehension = Comprehension(kind: .filter, variable: variable, range: target, predicate: args[1], transform: nil)
    default:
      comprehension = args.count == 2
        ? Comprehension(kind: .map, variable: variable, range: target, predicate: nil, transform: args[1])
        : Comprehension(kind: .map, variable: variable, range: target, predicate: args[1], transform: args[2])
    }
    return try make(.comprehension(comprehension), [target] + args.dropFirst())
  }

  private static func simpleName(_ expr: Expr, _ what: String) throws(SourceError) -> String {
    guard case .identifier(let name, rooted: false) = expr.kind else {
      throw SourceError(message: "\(what) must be a simple name", offset: expr.start)
    }
    return name
  }
}
