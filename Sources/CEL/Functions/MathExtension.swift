/// cel-java's math extension at its latest version, which InstantDB enables:
/// `math.greatest`, `math.least`, `math.ceil`, `floor`, `round`, `trunc`, `abs`, `sign`, `isInf`,
/// `isNaN`, `isFinite`, `sqrt`, and the bitwise `bitAnd`, `bitOr`, `bitXor`, `bitNot`,
/// `bitShiftLeft`, `bitShiftRight`.
enum MathExtension {
  static let unary: Set<String> = [
    "math.ceil", "math.floor", "math.round", "math.trunc", "math.abs", "math.sign", "math.isInf",
    "math.isNaN", "math.isFinite", "math.sqrt", "math.bitNot",
  ]
  static let binary: Set<String> = [
    "math.bitAnd", "math.bitOr", "math.bitXor", "math.bitShiftLeft", "math.bitShiftRight",
  ]

  /// `math.greatest(a, b, …)` or `math.greatest([a, b, …])`, and `math.least` likewise.
  static func extreme(_ name: String, _ args: [CELValue], greatest: Bool) throws(CELEvaluationError) -> CELValue {
    var candidates = args
    if args.count == 1, case .list(let list) = args[0] {
      guard !list.isEmpty else { throw CELEvaluationError(.invalidArgument, "\(name)() of an empty list") }
      candidates = list
    }
    var best: CELValue?
    for candidate in candidates {
      switch candidate {
      case .int, .uint, .double: break
      default: throw Builtins.noOverload(name, args)
      }
      guard let current = best else {
        best = candidate
        continue
      }
      if let order = Numbers.compare(candidate, current), let o = order, greatest ? o > 0 : o < 0 {
        best = candidate
      }
    }
    return best!
  }

  static func unary(_ name: String, _ x: CELValue) throws(CELEvaluationError) -> CELValue {
    switch (name, x) {
    case ("math.ceil", .double(let d)): return .double(d.rounded(.up))
    case ("math.floor", .double(let d)): return .double(d.rounded(.down))
    case ("math.round", .double(let d)): return .double(d.rounded(.toNearestOrAwayFromZero))
    case ("math.trunc", .double(let d)): return .double(d.rounded(.towardZero))
    case ("math.isInf", .double(let d)): return .bool(d.isInfinite)
    case ("math.isNaN", .double(let d)): return .bool(d.isNaN)
    case ("math.isFinite", .double(let d)): return .bool(d.isFinite)
    case ("math.abs", .int(let i)):
      guard i != .min else { throw Arithmetic.overflow("math.abs(\(i))") }
      return .int(abs(i))
    case ("math.abs", .uint): return x
    case ("math.abs", .double(let d)): return .double(abs(d))
    case ("math.sign", .int(let i)): return .int(i.signum())
    case ("math.sign", .uint(let u)): return .uint(u == 0 ? 0 : 1)
    case ("math.sign", .double(let d)): return .double(d.isNaN ? d : (d > 0 ? 1 : (d < 0 ? -1 : 0)))
    case ("math.sqrt", .double(let d)): return .double(d.squareRoot())
    case ("math.sqrt", .int(let i)): return .double(Double(i).squareRoot())
    case ("math.sqrt", .uint(let u)): return .double(Double(u).squareRoot())
    case ("math.bitNot", .int(let i)): return .int(~i)
    case ("math.bitNot", .uint(let u)): return .uint(~u)
    default: throw Builtins.noOverload(name, [x])
    }
  }

  static func binary(_ name: String, _ x: CELValue, _ y: CELValue) throws(CELEvaluationError) -> CELValue {
    switch (name, x, y) {
    case ("math.bitAnd", .int(let a), .int(let b)): return .int(a & b)
    case ("math.bitAnd", .uint(let a), .uint(let b)): return .uint(a & b)
    case ("math.bitOr", .int(let a), .int(let b)): return .int(a | b)
    case ("math.bitOr", .uint(let a), .uint(let b)): return .uint(a | b)
    case ("math.bitXor", .int(let a), .int(let b)): return .int(a ^ b)
    case ("math.bitXor", .uint(let a), .uint(let b)): return .uint(a ^ b)
    case ("math.bitShiftLeft", _, .int(let n)), ("math.bitShiftRight", _, .int(let n)):
      guard n >= 0 else { throw CELEvaluationError(.invalidArgument, "\(name)() by a negative amount (\(n))") }
      let left = name == "math.bitShiftLeft"
      switch x {
      case .int(let a):
        // Vacated bits fill with zero in both directions: the shift works on the bit pattern.
        let bits = UInt64(bitPattern: a)
        return .int(Int64(bitPattern: n >= 64 ? 0 : (left ? bits << UInt64(n) : bits >> UInt64(n))))
      case .uint(let a):
        return .uint(n >= 64 ? 0 : (left ? a << UInt64(n) : a >> UInt64(n)))
      default: throw Builtins.noOverload(name, [x, y])
      }
    default: throw Builtins.noOverload(name, [x, y])
    }
  }
}
