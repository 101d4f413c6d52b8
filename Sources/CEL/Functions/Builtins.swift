/// A built-in global function: the arities it accepts, and what it does once the arguments are
/// evaluated. Overloads are chosen inside by the argument types.
struct BuiltinFunction: Sendable {
  let arity: ClosedRange<Int>
  let run: @Sendable (Frame, [CELValue]) throws(CELEvaluationError) -> CELValue
}

/// A built-in receiver-style method, `receiver.name(args…)`.
struct BuiltinMethod: Sendable {
  let arity: ClosedRange<Int>
  let run: @Sendable (Frame, CELValue, [CELValue]) throws(CELEvaluationError) -> CELValue
}

/// Every function and method CEL programs can call without the host: the standard library, and
/// the extensions InstantDB's CEL environment enables (strings, math; `cel.bind` is a macro).
enum Builtins {
  static let functions: [String: BuiltinFunction] = {
    var table: [String: BuiltinFunction] = [
      "size": unary { v, _ throws(CELEvaluationError) in try Strings.size(v) },
      "int": unary { v, _ throws(CELEvaluationError) in try Conversions.toInt(v) },
      "uint": unary { v, _ throws(CELEvaluationError) in try Conversions.toUInt(v) },
      "double": unary { v, _ throws(CELEvaluationError) in try Conversions.toDouble(v) },
      "string": unary { v, _ throws(CELEvaluationError) in try Conversions.toString(v) },
      "bool": unary { v, _ throws(CELEvaluationError) in try Conversions.toBool(v) },
      "bytes": unary { v, _ throws(CELEvaluationError) in try Conversions.toBytes(v) },
      "timestamp": unary { v, _ throws(CELEvaluationError) in try Conversions.toTimestamp(v) },
      "duration": unary { v, _ throws(CELEvaluationError) in try Conversions.toDuration(v) },
      "type": unary { v, _ in .type(v.celType) },
      "dyn": unary { v, _ in v },
      "matches": BuiltinFunction(arity: 2...2) { frame, args throws(CELEvaluationError) in
        guard case .string(let s) = args[0], case .string(let pattern) = args[1] else {
          throw noOverload("matches", args)
        }
        return .bool(try matches(s, try compileRegex(pattern, frame), frame))
      },
      "math.greatest": BuiltinFunction(arity: 1...Int.max) { _, args throws(CELEvaluationError) in
        try MathExtension.extreme("math.greatest", args, greatest: true)
      },
      "math.least": BuiltinFunction(arity: 1...Int.max) { _, args throws(CELEvaluationError) in
        try MathExtension.extreme("math.least", args, greatest: false)
      },
    ]
    for name in MathExtension.unary {
      table[name] = unary { v, _ throws(CELEvaluationError) in try MathExtension.unary(name, v) }
    }
    for name in MathExtension.binary {
      table[name] = BuiltinFunction(arity: 2...2) { _, args throws(CELEvaluationError) in
        try MathExtension.binary(name, args[0], args[1])
      }
    }
    return table
  }()

  static let methods: [String: BuiltinMethod] = {
    var table: [String: BuiltinMethod] = [
      "size": method(0...0) { _, receiver, _ throws(CELEvaluationError) in try Strings.size(receiver) },
      "contains": stringMethod("contains", 1...1) { frame, s, args throws(CELEvaluationError) in
        .bool(try Strings.contains(s, try string(args[0], "contains", s), frame))
      },
      "startsWith": stringMethod("startsWith", 1...1) { _, s, args throws(CELEvaluationError) in
        .bool(Strings.startsWith(s, try string(args[0], "startsWith", s)))
      },
      "endsWith": stringMethod("endsWith", 1...1) { _, s, args throws(CELEvaluationError) in
        .bool(Strings.endsWith(s, try string(args[0], "endsWith", s)))
      },
      "matches": stringMethod("matches", 1...1) { frame, s, args throws(CELEvaluationError) in
        .bool(try matches(s, try compileRegex(try string(args[0], "matches", s), frame), frame))
      },
      "charAt": stringMethod("charAt", 1...1) { _, s, args throws(CELEvaluationError) in
        try Strings.charAt(s, try int(args[0], "charAt", s))
      },
      "indexOf": stringMethod("indexOf", 1...2) { frame, s, args throws(CELEvaluationError) in
        try Strings.indexOf(
          s, try string(args[0], "indexOf", s), from: args.count > 1 ? try int(args[1], "indexOf", s) : nil, frame)
      },
      "lastIndexOf": stringMethod("lastIndexOf", 1...2) { frame, s, args throws(CELEvaluationError) in
        try Strings.lastIndexOf(
          s, try string(args[0], "lastIndexOf", s), upTo: args.count > 1 ? try int(args[1], "lastIndexOf", s) : nil,
          frame)
      },
      "lowerAscii": stringMethod("lowerAscii", 0...0) { _, s, _ in Strings.lowerAscii(s) },
      "upperAscii": stringMethod("upperAscii", 0...0) { _, s, _ in Strings.upperAscii(s) },
      "trim": stringMethod("trim", 0...0) { _, s, _ in Strings.trim(s) },
      "replace": stringMethod("replace", 2...3) { frame, s, args throws(CELEvaluationError) in
        try Strings.replace(
          s, try string(args[0], "replace", s), try string(args[1], "replace", s),
          limit: args.count > 2 ? try int(args[2], "replace", s) : -1, frame)
      },
      "split": stringMethod("split", 1...2) { frame, s, args throws(CELEvaluationError) in
        try Strings.split(
          s, try string(args[0], "split", s), limit: args.count > 1 ? try int(args[1], "split", s) : -1, frame)
      },
      "substring": stringMethod("substring", 1...2) { _, s, args throws(CELEvaluationError) in
        try Strings.substring(
          s, try int(args[0], "substring", s), args.count > 1 ? try int(args[1], "substring", s) : nil)
      },
      "join": method(0...1) { frame, receiver, args throws(CELEvaluationError) in
        guard case .list(let list) = receiver else { throw noOverload("join", [receiver] + args) }
        var separator = ""
        if let first = args.first {
          guard case .string(let s) = first else { throw noOverload("join", [receiver] + args) }
          separator = s
        }
        return try Strings.join(list, separator, frame)
      },
    ]
    for name in TimeFunctions.accessors {
      table[name] = method(0...1) { _, receiver, args throws(CELEvaluationError) in
        try TimeFunctions.accessor(name, receiver, args)
      }
    }
    return table
  }()

  // MARK: Helpers

  private static func unary(
    _ body: @escaping @Sendable (CELValue, Frame) throws(CELEvaluationError) -> CELValue
  ) -> BuiltinFunction {
    BuiltinFunction(arity: 1...1) { frame, args throws(CELEvaluationError) in try body(args[0], frame) }
  }

  private static func method(
    _ arity: ClosedRange<Int>,
    _ body: @escaping @Sendable (Frame, CELValue, [CELValue]) throws(CELEvaluationError) -> CELValue
  ) -> BuiltinMethod {
    BuiltinMethod(arity: arity, run: body)
  }

  /// A method whose receiver must be a string.
  private static func stringMethod(
    _ name: String, _ arity: ClosedRange<Int>,
    _ body: @escaping @Sendable (Frame, String, [CELValue]) throws(CELEvaluationError) -> CELValue
  ) -> BuiltinMethod {
    BuiltinMethod(arity: arity) { frame, receiver, args throws(CELEvaluationError) in
      guard case .string(let s) = receiver else { throw noOverload(name, [receiver] + args) }
      return try body(frame, s, args)
    }
  }

  private static func string(_ value: CELValue, _ name: String, _ receiver: String) throws(CELEvaluationError) -> String {
    guard case .string(let s) = value else { throw noOverload(name, [.string(receiver), value]) }
    return s
  }

  private static func int(_ value: CELValue, _ name: String, _ receiver: String) throws(CELEvaluationError) -> Int64 {
    guard case .int(let i) = value else { throw noOverload(name, [.string(receiver), value]) }
    return i
  }

  /// Compiles a pattern given at run time (a literal pattern is compiled once, with the program).
  static func compileRegex(_ pattern: String, _ frame: Frame) throws(CELEvaluationError) -> Regex {
    try frame.charge(pattern.unicodeScalars.count / 8)
    do throws(RegexError) {
      return try Regex(pattern, maxSize: frame.limits.maxRegexSize)
    } catch {
      throw CELEvaluationError(.invalidArgument, "invalid regular expression '\(pattern)': \(error.message)")
    }
  }

  /// Runs a regex, first charging the steps its worst case can take.
  static func matches(_ text: String, _ regex: Regex, _ frame: Frame) throws(CELEvaluationError) -> Bool {
    try frame.charge(text.unicodeScalars.count * max(1, regex.size / 64))
    return regex.matches(text)
  }

  /// The whole of a host object, for operations that need every entry.
  static func materialize(_ object: any CELObject) throws(CELEvaluationError) -> CELValue? {
    let whole = try object.materialize()
    if case .object = whole {
      throw CELEvaluationError(.host, "\(object.typeName) object materialized to another object")
    }
    return whole
  }

  static func noOverload(_ name: String, _ args: [CELValue]) -> CELEvaluationError {
    let types = args.map { $0.celType.name }.joined(separator: ", ")
    return CELEvaluationError(.noSuchOverload, "no matching overload for '\(name)' applied to (\(types))")
  }
}
