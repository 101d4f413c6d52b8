/// The type conversion functions: `int()`, `uint()`, `double()`, `string()`, `bool()`,
/// `bytes()`, `timestamp()`, `duration()`, `type()` and `dyn()`.
enum Conversions {
  static func toInt(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .int: return value
    case .uint(let u):
      guard let i = Int64(exactly: u) else { throw range("\(u)u", "int") }
      return .int(i)
    case .double(let d):
      // CEL keeps the open interval (minInt, maxInt): the ends do not round-trip reliably.
      guard d > -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 else {
        throw range(CELValue.double(d).description, "int")
      }
      return .int(Int64(d.rounded(.towardZero)))
    case .string(let s):
      guard let i = Int64(s, radix: 10) else { throw invalid(s, "int") }
      return .int(i)
    case .timestamp(let t): return .int(t.seconds)
    default: throw Builtins.noOverload("int", [value])
    }
  }

  static func toUInt(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .uint: return value
    case .int(let i):
      guard let u = UInt64(exactly: i) else { throw range(String(i), "uint") }
      return .uint(u)
    case .double(let d):
      guard d > -1, d < 18_446_744_073_709_551_616.0 else { throw range(CELValue.double(d).description, "uint") }
      return .uint(UInt64(d.rounded(.towardZero)))
    case .string(let s):
      guard let u = UInt64(s, radix: 10) else { throw invalid(s, "uint") }
      return .uint(u)
    default: throw Builtins.noOverload("uint", [value])
    }
  }

  static func toDouble(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .double: return value
    case .int(let i): return .double(Double(i))
    case .uint(let u): return .double(Double(u))
    case .string(let s):
      guard let d = Double(s) else { throw invalid(s, "double") }
      return .double(d)
    default: throw Builtins.noOverload("double", [value])
    }
  }

  static func toString(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .string: return value
    case .bool(let b): return .string(b ? "true" : "false")
    case .int(let i): return .string(String(i))
    case .uint(let u): return .string(String(u))
    case .double(let d): return .string(CELFormat.javaDouble(d))
    case .bytes(let b):
      // Decoding replaces invalid sequences, so only valid UTF-8 survives the round trip.
      let s = String(decoding: b, as: UTF8.self)
      guard s.utf8.elementsEqual(b) else {
        throw CELEvaluationError(.invalidArgument, "invalid UTF-8 in bytes converted to string")
      }
      return .string(s)
    case .timestamp(let t): return .string(t.description)
    case .duration(let d): return .string(d.description)
    default: throw Builtins.noOverload("string", [value])
    }
  }

  /// Accepts what Go's `strconv.ParseBool` does (as cel-go and the conformance tests do).
  static func toBool(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .bool: return value
    case .string(let s):
      switch s {
      case "1", "t", "T", "true", "TRUE", "True": return .bool(true)
      case "0", "f", "F", "false", "FALSE", "False": return .bool(false)
      default: throw invalid(s, "bool")
      }
    default: throw Builtins.noOverload("bool", [value])
    }
  }

  static func toBytes(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .bytes: return value
    case .string(let s): return .bytes(Array(s.utf8))
    default: throw Builtins.noOverload("bytes", [value])
    }
  }

  /// `timestamp(string)` takes RFC 3339; `timestamp(int)` takes seconds since the epoch.
  static func toTimestamp(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .timestamp: return value
    case .string(let s):
      if let t = CELTimestamp(rfc3339: s) { return .timestamp(t) }
      if RFC3339.parse(s) != nil { throw range("'\(s)'", "timestamp") }
      throw CELEvaluationError(
        .invalidArgument, "cannot parse '\(s)' as a timestamp (RFC 3339, like '2027-01-01T00:00:00Z')")
    case .int(let seconds):
      guard let t = CELTimestamp(seconds: seconds) else { throw range(String(seconds), "timestamp") }
      return .timestamp(t)
    default: throw Builtins.noOverload("timestamp", [value])
    }
  }

  static func toDuration(_ value: CELValue) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .duration: return value
    case .string(let s):
      switch DurationText.parse(s) {
      case .value(let n): return .duration(CELDuration(nanoseconds: n))
      case .outOfRange: throw range("'\(s)'", "duration")
      case .malformed:
        throw CELEvaluationError(
          .invalidArgument, "cannot parse '\(s)' as a duration (like '1h30m', '2.5s' or '100ms')")
      }
    default: throw Builtins.noOverload("duration", [value])
    }
  }

  private static func range(_ what: String, _ type: String) -> CELEvaluationError {
    CELEvaluationError(.overflow, "\(what) is out of range for \(type)")
  }

  private static func invalid(_ text: String, _ type: String) -> CELEvaluationError {
    CELEvaluationError(.invalidArgument, "cannot convert '\(text)' to \(type)")
  }
}
