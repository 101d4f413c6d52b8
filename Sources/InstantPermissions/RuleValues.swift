import CEL
import InstantCore
import OrderedCollections

/// JSON as rules see it: integral numbers are `int` (as the reference's JSON reader gives
/// `Long`), other numbers `double`, objects maps with string keys.
enum RuleValues {
  static func cel(_ json: JSON) -> CELValue {
    switch json {
    case .null: return .null
    case let .bool(b): return .bool(b)
    case let .number(n):
      if n.rounded() == n, abs(n) < 9.2e18 { return .int(Int64(n)) }
      return .double(n)
    case let .string(s): return .string(s)
    case let .array(items): return .list(items.map(cel))
    case let .object(o): return .map(CELMap(o.map { (CELMap.Key.string($0.key), cel($0.value)) }))
    }
  }

  /// A value a rule read, as JSON, for reporting it (``PermissionCheck/bindings``): entities and
  /// records as their fields; timestamps, durations and bytes as their description.
  static func json(_ value: CELValue) -> JSON {
    switch value {
    case .null: return .null
    case let .bool(b): return .bool(b)
    case let .int(i): return .number(Double(i))
    case let .uint(u): return .number(Double(u))
    case let .double(d): return .number(d)
    case let .string(s): return .string(s)
    case let .list(items): return .array(items.map(json))
    case let .map(map):
      var object: JSONObject = [:]
      for (key, item) in map.entries { object[key.value.stringValue ?? "\(key.value)"] = json(item) }
      return .object(object)
    case let .object(object as EntityValue): return .object(object.fields)
    case let .object(object as Record): return .object(object.fields)
    default: return .string("\(value)")
    }
  }

  /// An object whose every field is present: a missing one reads `null` and `has()` is true, as
  /// with the reference's `auth`, `data`, `newData` and `ruleParams` (`auth.isAdmin` on a user
  /// without it is `null`, which denies).
  static func record(_ fields: JSONObject?) -> CELValue { .object(Record(fields ?? [:])) }

  final class Record: CELObject {
    let fields: JSONObject
    init(_ fields: JSONObject) { self.fields = fields }
    func member(_ name: String) throws(CELEvaluationError) -> CELValue? { fields[name].map(RuleValues.cel) ?? .null }
    func materialize() throws(CELEvaluationError) -> CELValue? { RuleValues.cel(.object(fields)) }
    func isEqual(to other: any CELObject) -> Bool {
      guard let other = other as? Record else { return false }
      return fields == other.fields
    }
  }
}
