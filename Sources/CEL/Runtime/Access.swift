/// Field selection, indexing, `has()` and `in`, over maps, lists and host objects.
enum Access {
  /// `e.f`: a map's string key or an object's field.
  static func select(_ value: CELValue, _ field: String) throws(CELEvaluationError) -> CELValue {
    switch value {
    case .map(let map):
      guard let found = map[field] else { throw CELEvaluationError(.noSuchKey, "no such key: '\(field)'") }
      return found
    case .object(let object):
      guard let found = try object.member(field) else {
        throw CELEvaluationError(.noSuchField, "no such field '\(field)' on \(object.typeName)")
      }
      return found
    default:
      throw CELEvaluationError(.noSuchField, "cannot select field '\(field)' from a value of type \(value.celType)")
    }
  }

  /// `e[i]`: a list element, a map value, or an object's field by name.
  static func index(_ container: CELValue, _ key: CELValue) throws(CELEvaluationError) -> CELValue {
    switch container {
    case .list(let list):
      let position: Int64
      switch key {
      case .int(let i): position = i
      case .uint(let u): position = u > UInt64(Int64.max) ? Int64.max : Int64(u)
      case .double(let d):
        guard let i = Int64(exactly: d) else {
          throw CELEvaluationError(.invalidArgument, "list index \(CELValue.double(d)) is not a whole number")
        }
        position = i
      default:
        throw Builtins.noOverload("_[_]", [container, key])
      }
      guard position >= 0 && position < Int64(list.count) else {
        throw CELEvaluationError(.indexOutOfBounds, "index \(position) out of range for a list of size \(list.count)")
      }
      return list[Int(position)]
    case .map(let map):
      let (usable, found) = map.lookup(key)
      guard usable else { throw Builtins.noOverload("_[_]", [container, key]) }
      guard let found else { throw CELEvaluationError(.noSuchKey, "no such key: \(key)") }
      return found
    case .object(let object):
      guard case .string(let name) = key else { throw Builtins.noOverload("_[_]", [container, key]) }
      guard let found = try object.member(name) else {
        throw CELEvaluationError(.noSuchKey, "no such key: \(key) on \(object.typeName)")
      }
      return found
    default:
      throw Builtins.noOverload("_[_]", [container, key])
    }
  }

  /// `has(e.f)`.
  static func has(_ value: CELValue, _ field: String) throws(CELEvaluationError) -> Bool {
    switch value {
    case .map(let map): return map[field] != nil
    case .object(let object): return try object.member(field) != nil
    default:
      throw CELEvaluationError(.noSuchField, "has() needs a map or an object, not a value of type \(value.celType)")
    }
  }

  /// `x in c`: list membership by CEL equality, map key presence.
  static func contains(_ container: CELValue, _ element: CELValue, _ frame: Frame) throws(CELEvaluationError) -> Bool {
    switch container {
    case .list(let list):
      try frame.charge(list.count / 8)
      return list.contains { $0.celEquals(element) }
    case .map(let map):
      return map.lookup(element).value != nil
    case .object(let object):
      guard let whole = try Builtins.materialize(object) else { throw Builtins.noOverload("in", [element, container]) }
      return try contains(whole, element, frame)
    default:
      throw Builtins.noOverload("in", [element, container])
    }
  }
}
