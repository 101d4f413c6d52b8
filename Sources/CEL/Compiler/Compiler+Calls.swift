/// Function and method calls: resolved against the host's ``CELFunctions`` and the built-ins when
/// the program is created; dispatched on the argument types when it runs.
extension Compiler {
  mutating func call(_ name: String, _ args: [Expr], _ offset: Int) throws(SourceError) -> Compiled {
    let host = functions.functions[CELFunctions.Key(name: name, arity: args.count)]
    let builtin = Builtins.functions[name].flatMap { $0.arity.contains(args.count) ? $0 : nil }
    if host == nil && builtin == nil {
      if let known = Builtins.functions[name] {
        throw SourceError(message: "\(name)() takes \(describe(known.arity)), not \(args.count)", offset: offset)
      }
      if functions.hasFunction(named: name) {
        throw SourceError(message: "no \(name)() taking \(args.count) argument\(args.count == 1 ? "" : "s")", offset: offset)
      }
      throw SourceError(message: "unknown function '\(name)'", offset: offset)
    }
    let compiled = try args.map { (a) throws(SourceError) in try compile(a) }

    // matches(s, 'literal'): compile the pattern now, and report a bad one now.
    if host == nil, name == "matches", let pattern = compiled[1].constant {
      if case .string(let p) = pattern {
        let regex = try literalRegex(p, compiled[1].offset)
        let text = compiled[0]
        return node(offset) { frame throws(CELEvaluationError) in
          let value = try text.run(frame)
          guard case .string(let s) = value else { throw Builtins.noOverload("matches", [value, pattern]) }
          return .bool(try Builtins.matches(s, regex, frame))
        }
      }
    }

    return node(offset) { frame throws(CELEvaluationError) in
      var values: [CELValue] = []
      values.reserveCapacity(compiled.count)
      for arg in compiled { values.append(try arg.run(frame)) }
      if let host, let result = try host(values) { return result }
      if let builtin { return try builtin.run(frame, values) }
      throw Builtins.noOverload(name, values)
    }
  }

  mutating func method(_ target: Expr, _ name: String, _ args: [Expr], _ offset: Int) throws(SourceError) -> Compiled {
    let key = CELFunctions.Key(name: name, arity: args.count)
    let host = functions.methods[key]
    let declaredForObjects = functions.objectMethods.contains(key)
    let builtin = Builtins.methods[name].flatMap { $0.arity.contains(args.count) ? $0 : nil }
    if host == nil && builtin == nil && !declaredForObjects {
      if let known = Builtins.methods[name] {
        throw SourceError(message: "\(name)() takes \(describe(known.arity)), not \(args.count)", offset: offset)
      }
      if functions.hasMethod(named: name) {
        throw SourceError(message: "no method \(name)() taking \(args.count) argument\(args.count == 1 ? "" : "s")", offset: offset)
      }
      if Builtins.functions[name] != nil {
        throw SourceError(message: "\(name)() is a function, not a method: write \(name)(x)", offset: offset)
      }
      throw SourceError(message: "unknown method '\(name)'", offset: offset)
    }
    let receiver = try compile(target)
    let compiled = try args.map { (a) throws(SourceError) in try compile(a) }

    // s.matches('literal'): compile the pattern now.
    if host == nil, !declaredForObjects, name == "matches", case .string(let p)? = compiled[0].constant {
      let regex = try literalRegex(p, compiled[0].offset)
      return node(offset) { frame throws(CELEvaluationError) in
        let value = try receiver.run(frame)
        guard case .string(let s) = value else { throw Builtins.noOverload("matches", [value, .string(p)]) }
        return .bool(try Builtins.matches(s, regex, frame))
      }
    }

    return node(offset) { frame throws(CELEvaluationError) in
      let object = try receiver.run(frame)
      var values: [CELValue] = []
      values.reserveCapacity(compiled.count)
      for arg in compiled { values.append(try arg.run(frame)) }
      if case .object(let o) = object, let result = try o.call(name, values) { return result }
      if let host, let result = try host(object, values) { return result }
      if let builtin { return try builtin.run(frame, object, values) }
      throw Builtins.noOverload(name, [object] + values)
    }
  }

  private func literalRegex(_ pattern: String, _ offset: Int) throws(SourceError) -> Regex {
    do throws(RegexError) {
      return try Regex(pattern, maxSize: limits.maxRegexSize)
    } catch {
      throw SourceError(message: "invalid regular expression: \(error.message)", offset: offset)
    }
  }

  private func describe(_ arity: ClosedRange<Int>) -> String {
    let noun = arity.upperBound == 1 ? "argument" : "arguments"
    if arity.lowerBound == arity.upperBound { return "\(arity.lowerBound) \(noun)" }
    if arity.upperBound == Int.max { return "at least \(arity.lowerBound) arguments" }
    return "\(arity.lowerBound) to \(arity.upperBound) arguments"
  }
}
