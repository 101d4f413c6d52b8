/// Turns a parsed expression into a tree of closures, once per program. Names are resolved here:
/// comprehension and `cel.bind` variables become slot numbers, functions and methods are looked
/// up (an unknown one, or a wrong argument count, is an error now rather than at evaluation),
/// literal lists and maps are built once, and literal regular expressions are compiled once.
struct Compiler {
  struct Compiled: Sendable {
    let run: Evaluator
    /// The value, when the node is a constant.
    let constant: CELValue?
    let offset: Int
  }

  let functions: CELFunctions
  let variables: Set<String>?
  let limits: CELLimits
  private var scopes: [(name: String, slot: Int)] = []
  private(set) var slotCount = 0
  /// The variables the expression reads (outside comprehensions), for ``CELProgram/referencedVariables``.
  private(set) var referenced: Set<String> = []

  init(functions: CELFunctions, variables: Set<String>?, limits: CELLimits) {
    self.functions = functions
    self.variables = variables
    self.limits = limits
  }

  mutating func compile(_ expr: Expr) throws(SourceError) -> Compiled {
    let offset = expr.offset
    switch expr.kind {
    case .literal(let value):
      return constant(value, offset)

    case .identifier(let name, let rooted):
      if !rooted, let slot = localSlot(name) { return local(slot, offset) }
      return try global(name, offset)

    case .select(let operand, let field):
      if let resolved = try qualified(expr) { return resolved }
      let target = try compile(operand)
      if variables == nil, let dotted = qualifiedName(expr) {
        // With no declarations, `a.b.c` may name a variable itself; the longest name wins.
        return node(offset) { frame throws(CELEvaluationError) in
          if let value = frame.activation.resolve(dotted) { return value }
          return try Access.select(try target.run(frame), field)
        }
      }
      return node(offset) { frame throws(CELEvaluationError) in
        try Access.select(try target.run(frame), field)
      }

    case .presence(let operand, let field):
      let target = try compile(operand)
      return node(offset) { frame throws(CELEvaluationError) in
        .bool(try Access.has(try target.run(frame), field))
      }

    case .index(let container, let key):
      let c = try compile(container)
      let k = try compile(key)
      return node(offset) { frame throws(CELEvaluationError) in
        try Access.index(try c.run(frame), try k.run(frame))
      }

    case .call(let name, let args):
      return try call(name, args, offset)

    case .method(let target, let name, let args):
      if let qualifier = qualifiedName(target), isFunctionNamespace(qualifier, function: "\(qualifier).\(name)") {
        return try call("\(qualifier).\(name)", args, offset)
      }
      return try method(target, name, args, offset)

    case .list(let elements):
      try checkLiteralSize(elements.count, offset)
      let compiled = try elements.map { (e) throws(SourceError) in try compile(e) }
      if compiled.allSatisfy({ $0.constant != nil }) {
        return constant(.list(compiled.map { $0.constant! }), offset)
      }
      return node(offset) { frame throws(CELEvaluationError) in
        var values: [CELValue] = []
        values.reserveCapacity(compiled.count)
        for element in compiled { values.append(try element.run(frame)) }
        return .list(values)
      }

    case .map(let entries):
      try checkLiteralSize(entries.count, offset)
      let compiled = try entries.map { (entry) throws(SourceError) in (try compile(entry.key), try compile(entry.value)) }
      if compiled.allSatisfy({ $0.0.constant != nil && $0.1.constant != nil }),
        let map = try? CELMap.literal(compiled.map { ($0.0.constant!, $0.1.constant!) })
      {
        return constant(.map(map), offset)
      }
      return node(offset) { frame throws(CELEvaluationError) in
        var pairs: [(CELValue, CELValue)] = []
        for (key, value) in compiled { pairs.append((try key.run(frame), try value.run(frame))) }
        return .map(try CELMap.literal(pairs))
      }

    case .not(let operand):
      let o = try compile(operand)
      return node(offset) { frame throws(CELEvaluationError) in
        let value = try o.run(frame)
        guard case .bool(let b) = value else { throw Builtins.noOverload("!_", [value]) }
        return .bool(!b)
      }

    case .negate(let operand):
      let o = try compile(operand)
      return node(offset) { frame throws(CELEvaluationError) in try Arithmetic.negate(try o.run(frame)) }

    case .binary(let op, let left, let right):
      return binary(op, try compile(left), try compile(right), offset)

    case .and(let terms):
      return logical(try terms.map { (t) throws(SourceError) in try compile(t) }, decisive: false, offset)

    case .or(let terms):
      return logical(try terms.map { (t) throws(SourceError) in try compile(t) }, decisive: true, offset)

    case .conditional(let condition, let whenTrue, let whenFalse):
      let c = try compile(condition)
      let t = try compile(whenTrue)
      let f = try compile(whenFalse)
      return node(offset) { frame throws(CELEvaluationError) in
        let value = try c.run(frame)
        guard case .bool(let b) = value else { throw Builtins.noOverload("_?_:_", [value]) }
        return try b ? t.run(frame) : f.run(frame)
      }

    case .comprehension(let comprehension):
      return try self.comprehension(comprehension, offset)

    case .bind(let name, let value, let body):
      let v = try compile(value)
      let slot = push(name)
      let b = try compile(body)
      pop()
      return node(offset) { frame throws(CELEvaluationError) in
        frame.locals[slot] = nil
        frame.pending[slot] = v.run
        return try b.run(frame)
      }
    }
  }

  private func checkLiteralSize(_ count: Int, _ offset: Int) throws(SourceError) {
    guard count <= limits.maxCollectionSize else {
      throw SourceError(
        message: "literal of \(count) elements; the limit is \(limits.maxCollectionSize) (CELLimits.maxCollectionSize)",
        offset: offset)
    }
  }

  // MARK: Nodes

  /// A node that counts a step and locates any error it raises at `offset`.
  func node(_ offset: Int, _ body: @escaping Evaluator) -> Compiled {
    Compiled(
      run: { frame throws(CELEvaluationError) in
        try frame.step()
        do throws(CELEvaluationError) {
          return try body(frame)
        } catch {
          throw error.located(at: offset)
        }
      },
      constant: nil, offset: offset)
  }

  func constant(_ value: CELValue, _ offset: Int) -> Compiled {
    Compiled(run: { frame throws(CELEvaluationError) in
      try frame.step()
      return value
    }, constant: value, offset: offset)
  }

  // MARK: Names

  private func localSlot(_ name: String) -> Int? {
    scopes.last { $0.name == name }?.slot
  }

  mutating func push(_ name: String) -> Int {
    let slot = slotCount
    slotCount += 1
    scopes.append((name, slot))
    return slot
  }

  mutating func pop() { scopes.removeLast() }

  private func local(_ slot: Int, _ offset: Int) -> Compiled {
    Compiled(run: { frame throws(CELEvaluationError) in
      try frame.step()
      if let value = frame.locals[slot] { return value }
      // A `cel.bind` value read for the first time.
      guard let pending = frame.pending[slot] else {
        throw CELEvaluationError(.unboundVariable, "variable read before it was bound").located(at: offset)
      }
      let value = try pending(frame)
      frame.locals[slot] = value
      return value
    }, constant: nil, offset: offset)
  }

  /// A name outside every comprehension: a declared (or, with no declarations, any) variable,
  /// or a type name such as `int`.
  private mutating func global(_ name: String, _ offset: Int) throws(SourceError) -> Compiled {
    if let variables {
      if variables.contains(name) {
        referenced.insert(name)
        return variable(name, offset)
      }
      if let type = CELType.named[name] { return constant(.type(type), offset) }
      throw SourceError(message: "undeclared reference to '\(name)'", offset: offset)
    }
    if let type = CELType.named[name] { return constant(.type(type), offset) }
    referenced.insert(name)
    return variable(name, offset)
  }

  private func variable(_ name: String, _ offset: Int) -> Compiled {
    node(offset) { frame throws(CELEvaluationError) in
      guard let value = frame.activation.resolve(name) else {
        throw CELEvaluationError(.unboundVariable, "no value for variable '\(name)'")
      }
      return value
    }
  }

  /// `a.b.c` as one dotted name, when it starts at a name that is not a comprehension variable.
  func qualifiedName(_ expr: Expr) -> String? {
    switch expr.kind {
    case .identifier(let name, let rooted):
      return !rooted && localSlot(name) != nil ? nil : name
    case .select(let operand, let field):
      return qualifiedName(operand).map { "\($0).\(field)" }
    default:
      return nil
    }
  }

  /// A dotted name that is itself a declared variable or a type (`google.protobuf.Timestamp`).
  private mutating func qualified(_ expr: Expr) throws(SourceError) -> Compiled? {
    guard let name = qualifiedName(expr) else { return nil }
    if variables?.contains(name) == true {
      referenced.insert(name)
      return variable(name, expr.offset)
    }
    if let type = CELType.named[name], !isVariableRoot(name) { return constant(.type(type), expr.offset) }
    return nil
  }

  /// Whether the first segment of a dotted name is a variable the program can see.
  private func isVariableRoot(_ dotted: String) -> Bool {
    let root = String(dotted.prefix { $0 != "." })
    return localSlot(root) != nil || variables?.contains(root) == true
  }

  /// Whether `qualifier.name(…)` names a namespaced function (`math.greatest`) rather than a
  /// method on the variable `qualifier`.
  private func isFunctionNamespace(_ qualifier: String, function: String) -> Bool {
    guard Builtins.functions[function] != nil || functions.hasFunction(named: function) else { return false }
    return !isVariableRoot(qualifier)
  }
}
