/// The comprehension macros over a list's elements or a map's keys.
///
/// `all` and `exists` absorb errors like `&&` and `||`: one element deciding the result (false for
/// `all`, true for `exists`) wins over an error from another; otherwise the first error is raised.
/// `exists_one`, `map` and `filter` raise any element's error. Every iteration counts a step.
extension Compiler {
  mutating func comprehension(_ c: Comprehension, _ offset: Int) throws(SourceError) -> Compiled {
    let range = try compile(c.range)
    let slot = push(c.variable)
    let predicate = try c.predicate.map { (p) throws(SourceError) in try compile(p) }
    let transform = try c.transform.map { (t) throws(SourceError) in try compile(t) }
    pop()
    let name = c.kind.rawValue

    @Sendable func elements(_ frame: Frame) throws(CELEvaluationError) -> [CELValue] {
      var value = try range.run(frame)
      if case .object(let object) = value, let whole = try Builtins.materialize(object) { value = whole }
      switch value {
      case .list(let list): return list
      case .map(let map): return map.keys.map(\.value)
      default: throw Builtins.noOverload(name, [value])
      }
    }

    /// A predicate's value, which must be a bool.
    @Sendable func test(_ predicate: Compiled, _ frame: Frame) throws(CELEvaluationError) -> Bool {
      let value = try predicate.run(frame)
      guard case .bool(let b) = value else {
        throw Builtins.noOverload(name, [value]).located(at: predicate.offset)
      }
      return b
    }

    switch c.kind {
    case .all, .exists:
      let decisive = c.kind == .exists
      let p = predicate!
      return node(offset) { frame throws(CELEvaluationError) in
        var firstError: CELEvaluationError?
        for element in try elements(frame) {
          try frame.step()
          frame.locals[slot] = element
          do throws(CELEvaluationError) {
            if try test(p, frame) == decisive { return .bool(decisive) }
          } catch {
            if error.kind == .limitExceeded { throw error }
            if firstError == nil { firstError = error }
          }
        }
        if let firstError { throw firstError }
        return .bool(!decisive)
      }
    case .existsOne:
      let p = predicate!
      return node(offset) { frame throws(CELEvaluationError) in
        var count = 0
        for element in try elements(frame) {
          try frame.step()
          frame.locals[slot] = element
          if try test(p, frame) { count += 1 }
        }
        return .bool(count == 1)
      }
    case .filter:
      let p = predicate!
      return node(offset) { frame throws(CELEvaluationError) in
        var kept: [CELValue] = []
        for element in try elements(frame) {
          try frame.step()
          frame.locals[slot] = element
          if try test(p, frame) { kept.append(element) }
        }
        return .list(kept)
      }
    case .map:
      let t = transform!
      return node(offset) { frame throws(CELEvaluationError) in
        var mapped: [CELValue] = []
        for element in try elements(frame) {
          try frame.step()
          frame.locals[slot] = element
          if let predicate, try !test(predicate, frame) { continue }
          mapped.append(try t.run(frame))
        }
        return .list(mapped)
      }
    }
  }
}
