/// Operators: arithmetic, comparisons, `in`, and the error-absorbing `&&` / `||`.
extension Compiler {
  func binary(_ op: BinaryOperator, _ l: Compiled, _ r: Compiled, _ offset: Int) -> Compiled {
    switch op {
    case .equal:
      return node(offset) { frame throws(CELEvaluationError) in .bool(try l.run(frame).celEquals(try r.run(frame))) }
    case .notEqual:
      return node(offset) { frame throws(CELEvaluationError) in .bool(!(try l.run(frame).celEquals(try r.run(frame)))) }
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      let symbol = op.rawValue
      let test: @Sendable (Int) -> Bool =
        switch op {
        case .less: { $0 < 0 }
        case .lessOrEqual: { $0 <= 0 }
        case .greater: { $0 > 0 }
        default: { $0 >= 0 }
        }
      return node(offset) { frame throws(CELEvaluationError) in
        guard let order = try Ordering.compare(try l.run(frame), try r.run(frame), symbol) else { return .bool(false) }
        return .bool(test(order))
      }
    case .in:
      return node(offset) { frame throws(CELEvaluationError) in
        let element = try l.run(frame)
        return .bool(try Access.contains(try r.run(frame), element, frame))
      }
    case .add:
      return node(offset) { frame throws(CELEvaluationError) in try Arithmetic.add(try l.run(frame), try r.run(frame), frame) }
    case .subtract:
      return node(offset) { frame throws(CELEvaluationError) in try Arithmetic.subtract(try l.run(frame), try r.run(frame)) }
    case .multiply:
      return node(offset) { frame throws(CELEvaluationError) in try Arithmetic.multiply(try l.run(frame), try r.run(frame)) }
    case .divide:
      return node(offset) { frame throws(CELEvaluationError) in try Arithmetic.divide(try l.run(frame), try r.run(frame)) }
    case .modulo:
      return node(offset) { frame throws(CELEvaluationError) in try Arithmetic.modulo(try l.run(frame), try r.run(frame)) }
    }
  }

  /// `&&` (decisive value `false`) or `||` (decisive `true`) over all the terms.
  ///
  /// CEL makes these commutative: a term equal to the decisive value decides the result even
  /// when another term is an error (or not a bool): `false && 1/0 > 0` and `1/0 > 0 && false`
  /// are both `false`. Terms run left to right and stop at the first decisive one; an error
  /// before it is kept and only raised when no term decides. Exceeding a limit is never absorbed.
  func logical(_ terms: [Compiled], decisive: Bool, _ offset: Int) -> Compiled {
    let symbol = decisive ? "||" : "&&"
    return Compiled(
      run: { frame throws(CELEvaluationError) in
        try frame.step()
        var firstError: CELEvaluationError?
        for term in terms {
          do throws(CELEvaluationError) {
            let value = try term.run(frame)
            guard case .bool(let b) = value else {
              if firstError == nil {
                firstError = Builtins.noOverload(symbol, [value]).located(at: term.offset)
              }
              continue
            }
            if b == decisive { return .bool(decisive) }
          } catch {
            if error.kind == .limitExceeded { throw error }
            if firstError == nil { firstError = error.located(at: term.offset) }
          }
        }
        if let firstError { throw firstError }
        return .bool(!decisive)
      },
      constant: nil, offset: offset)
  }
}
