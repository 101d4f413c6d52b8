import InstantCore
import OrderedCollections

/// JSON text as PostgreSQL prints a `jsonb` value, which is how the reference writes every value
/// of a backup line (`cast(value as text)`, written raw):
///
/// - a space after `:` and `,` inside objects and arrays: `{"a": 1, "b": [1, 2]}`;
/// - object keys shorter-first, then by bytes (jsonb's storage order);
/// - numbers in plain decimal notation, never with an exponent (`numeric` output);
/// - strings escape only `"`, `\` and control characters; other characters stay as UTF-8.
enum JSONBText {
  /// Appends the jsonb text of `value` to `out`.
  static func append(_ value: JSON, to out: inout String) {
    switch value {
    case .null: out += "null"
    case let .bool(b): out += b ? "true" : "false"
    case let .number(n): out += number(n)
    case let .string(s): appendString(s, to: &out)
    case let .array(items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += ", " }
        append(item, to: &out)
      }
      out += "]"
    case let .object(members):
      out += "{"
      let keys = members.keys.sorted(by: keyLess)
      for (i, key) in keys.enumerated() {
        if i > 0 { out += ", " }
        appendString(key, to: &out)
        out += ": "
        if let member = members[key] { append(member, to: &out) }
      }
      out += "}"
    }
  }

  /// The jsonb text of `value`.
  static func text(_ value: JSON) -> String {
    var out = ""
    append(value, to: &out)
    return out
  }

  /// jsonb's key order: shorter keys (in bytes) first, then bytewise.
  static func keyLess(_ a: String, _ b: String) -> Bool {
    let (la, lb) = (a.utf8.count, b.utf8.count)
    return la != lb ? la < lb : a.utf8Less(b)
  }

  /// A JSON string literal, as InstantCore writes one.
  static func appendString(_ s: String, to out: inout String) { JSON.writeString(s, to: &out) }

  /// A number as PostgreSQL's `numeric` prints it: plain decimal digits, no exponent, `0` for
  /// negative zero. Non-finite numbers (which JSON cannot hold) become `null`.
  static func number(_ n: Double) -> String {
    guard n.isFinite else { return "null" }
    if n == 0 { return "0" }
    if n.rounded() == n, abs(n) < 1e18 { return String(Int64(n)) }
    let (digits, point) = shortestDigits(abs(n))
    var out = n < 0 ? "-" : ""
    if point <= 0 {
      out += "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
      out += digits + String(repeating: "0", count: point - digits.count)
    } else {
      let split = digits.index(digits.startIndex, offsetBy: point)
      out += digits[..<split] + "." + digits[split...]
    }
    return out
  }

  /// The shortest round-trip decimal digits of a positive finite `n` and the position of the
  /// decimal point: `n = 0.<digits> × 10^point` (InstantCore's).
  static func shortestDigits(_ n: Double) -> (digits: String, point: Int) { JSNumber.shortestDigits(n) }
}
