import CEL

/// What InstantDB adds to CEL, and the limits every rule runs under.
///
/// - `x.ref(path)` on `auth`, `data` and `linkedData`: answered by ``EntityValue``;
/// - `timestamp(int)`: epoch milliseconds, as the reference reads it (CEL's own takes seconds);
/// - `t.getTime()`: a timestamp's epoch milliseconds.
///
/// Not provided: `rateLimit.<bucket>.limit(…)` (instant-local has no rate limits; a rule that
/// names `rateLimit` is refused when the rules are read).
enum RuleFunctions {
  static let functions: CELFunctions = {
    var f = CELFunctions()
    f.declareObjectMethod("ref", arity: 1)
    f.function("timestamp", arity: 1) { args throws(CELEvaluationError) in
      guard case let .int(ms) = args[0] else { return nil }
      return timestamp(millis: ms)
    }
    f.method("getTime", arity: 0) { receiver, _ throws(CELEvaluationError) in
      guard case let .timestamp(t) = receiver else { return nil }
      let (ms, overflow) = t.seconds.multipliedReportingOverflow(by: 1000)
      guard !overflow else { throw CELEvaluationError(.overflow, "getTime() overflows an int") }
      return .int(ms + Int64(t.nanos / 1_000_000))
    }
    return f
  }()

  /// Rules are short; these stop a hostile one (deep nesting, a comprehension over a huge list)
  /// early with an error, which denies.
  static let limits = CELLimits.default

  /// Epoch milliseconds as a CEL timestamp (`null` out of CEL's range), as InstantDB reads
  /// `timestamp(int)` and gives `request.time`.
  static func timestamp(millis ms: Int64) -> CELValue {
    let (q, r) = ms.quotientAndRemainder(dividingBy: 1000)
    let (seconds, rest) = r < 0 ? (q - 1, r + 1000) : (q, r)
    return CELTimestamp(seconds: seconds, nanos: Int32(rest) * 1_000_000).map(CELValue.timestamp) ?? .null
  }
}
