/// CEL's arithmetic operators. Integers never wrap: overflow is an error, as are integer division
/// and modulo by zero. Doubles follow IEEE 754 (`1.0 / 0.0` is infinity). Mixed numeric types are
/// not converted (`1 + 1.0` has no overload), as the spec says.
enum Arithmetic {
  static func add(_ a: CELValue, _ b: CELValue, _ frame: Frame) throws(CELEvaluationError) -> CELValue {
    switch (a, b) {
    case (.int(let x), .int(let y)):
      let (r, o) = x.addingReportingOverflow(y)
      if o { throw overflow("\(x) + \(y)") }
      return .int(r)
    case (.uint(let x), .uint(let y)):
      let (r, o) = x.addingReportingOverflow(y)
      if o { throw overflow("\(x)u + \(y)u") }
      return .uint(r)
    case (.double(let x), .double(let y)): return .double(x + y)
    case (.string(let x), .string(let y)):
      try frame.checkLength(x.unicodeScalars.count + y.unicodeScalars.count)
      try frame.charge((x.utf8.count + y.utf8.count) / 64)
      return .string(x + y)
    case (.bytes(let x), .bytes(let y)):
      try frame.checkLength(x.count + y.count)
      try frame.charge((x.count + y.count) / 64)
      return .bytes(x + y)
    case (.list(let x), .list(let y)):
      try frame.checkCollection(x.count + y.count)
      try frame.charge((x.count + y.count) / 16)
      return .list(x + y)
    case (.timestamp(let t), .duration(let d)), (.duration(let d), .timestamp(let t)):
      guard let r = t.adding(d) else { throw range("timestamp \(t) + duration \(d)") }
      return .timestamp(r)
    case (.duration(let x), .duration(let y)):
      let (r, o) = x.nanoseconds.addingReportingOverflow(y.nanoseconds)
      if o { throw range("duration \(x) + \(y)") }
      return .duration(CELDuration(nanoseconds: r))
    default:
      throw Builtins.noOverload("+", [a, b])
    }
  }

  static func subtract(_ a: CELValue, _ b: CELValue) throws(CELEvaluationError) -> CELValue {
    switch (a, b) {
    case (.int(let x), .int(let y)):
      let (r, o) = x.subtractingReportingOverflow(y)
      if o { throw overflow("\(x) - \(y)") }
      return .int(r)
    case (.uint(let x), .uint(let y)):
      let (r, o) = x.subtractingReportingOverflow(y)
      if o { throw overflow("\(x)u - \(y)u") }
      return .uint(r)
    case (.double(let x), .double(let y)): return .double(x - y)
    case (.timestamp(let x), .timestamp(let y)):
      guard let d = x.since(y) else { throw range("timestamp \(x) - timestamp \(y)") }
      return .duration(d)
    case (.timestamp(let t), .duration(let d)):
      let (negated, o) = Int64(0).subtractingReportingOverflow(d.nanoseconds)
      guard !o, let r = t.adding(CELDuration(nanoseconds: negated)) else {
        throw range("timestamp \(t) - duration \(d)")
      }
      return .timestamp(r)
    case (.duration(let x), .duration(let y)):
      let (r, o) = x.nanoseconds.subtractingReportingOverflow(y.nanoseconds)
      if o { throw range("duration \(x) - \(y)") }
      return .duration(CELDuration(nanoseconds: r))
    default:
      throw Builtins.noOverload("-", [a, b])
    }
  }

  static func multiply(_ a: CELValue, _ b: CELValue) throws(CELEvaluationError) -> CELValue {
    switch (a, b) {
    case (.int(let x), .int(let y)):
      let (r, o) = x.multipliedReportingOverflow(by: y)
      if o { throw overflow("\(x) * \(y)") }
      return .int(r)
    case (.uint(let x), .uint(let y)):
      let (r, o) = x.multipliedReportingOverflow(by: y)
      if o { throw overflow("\(x)u * \(y)u") }
      return .uint(r)
    case (.double(let x), .double(let y)): return .double(x * y)
    default:
      throw Builtins.noOverload("*", [a, b])
    }
  }

  static func divide(_ a: CELValue, _ b: CELValue) throws(CELEvaluationError) -> CELValue {
    switch (a, b) {
    case (.int(let x), .int(let y)):
      if y == 0 { throw CELEvaluationError(.divisionByZero, "division by zero") }
      let (r, o) = x.dividedReportingOverflow(by: y)
      if o { throw overflow("\(x) / \(y)") }
      return .int(r)
    case (.uint(let x), .uint(let y)):
      if y == 0 { throw CELEvaluationError(.divisionByZero, "division by zero") }
      return .uint(x / y)
    case (.double(let x), .double(let y)): return .double(x / y)
    default:
      throw Builtins.noOverload("/", [a, b])
    }
  }

  static func modulo(_ a: CELValue, _ b: CELValue) throws(CELEvaluationError) -> CELValue {
    switch (a, b) {
    case (.int(let x), .int(let y)):
      if y == 0 { throw CELEvaluationError(.divisionByZero, "modulus by zero") }
      let (r, o) = x.remainderReportingOverflow(dividingBy: y)
      if o { throw overflow("\(x) % \(y)") }
      return .int(r)
    case (.uint(let x), .uint(let y)):
      if y == 0 { throw CELEvaluationError(.divisionByZero, "modulus by zero") }
      return .uint(x % y)
    default:
      throw Builtins.noOverload("%", [a, b])
    }
  }

  static func negate(_ a: CELValue) throws(CELEvaluationError) -> CELValue {
    switch a {
    case .int(let x):
      if x == .min { throw overflow("-(\(x))") }
      return .int(-x)
    case .double(let x): return .double(-x)
    default: throw Builtins.noOverload("-_", [a])
    }
  }

  static func overflow(_ what: String) -> CELEvaluationError {
    CELEvaluationError(.overflow, "integer overflow: \(what)")
  }

  static func range(_ what: String) -> CELEvaluationError {
    CELEvaluationError(.overflow, "result out of range: \(what)")
  }
}
