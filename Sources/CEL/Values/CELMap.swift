/// A CEL map. Keys are `bool`, `int`, `uint` or `string`, as CEL allows.
///
/// Entries keep the order they were added in, so that macros over a map (`m.all(k, …)`) and
/// messages visit keys the same way every run; equality ignores that order.
public struct CELMap: Sendable {
  /// A map key. Strings compare by code points, as CEL does (no Unicode normalization).
  public enum Key: Sendable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case string(String)
  }

  private var order: [Key] = []
  private var storage: [Key: CELValue] = [:]

  public init() {}

  /// A map of the given entries; a later duplicate key replaces the earlier value.
  public init(_ entries: some Sequence<(Key, CELValue)>) {
    for (key, value) in entries { self[key] = value }
  }

  public var count: Int { order.count }
  public var isEmpty: Bool { order.isEmpty }

  /// The keys, in the order they were added.
  public var keys: [Key] { order }

  /// The entries, in the order their keys were added.
  public var entries: [(key: Key, value: CELValue)] { order.map { ($0, storage[$0]!) } }

  public subscript(key: Key) -> CELValue? {
    get { storage[key] }
    set {
      if let newValue {
        if storage.updateValue(newValue, forKey: key) == nil { order.append(key) }
      } else if storage.removeValue(forKey: key) != nil {
        order.removeAll { $0 == key }
      }
    }
  }

  /// The value under a string key.
  public subscript(key: String) -> CELValue? {
    get { self[.string(key)] }
    set { self[.string(key)] = newValue }
  }

  /// Finds the entry for a CEL value used as a key. Numbers find each other across `int`, `uint`
  /// and `double` when they are equal (`{1: 'a'}[1u]` and `{1: 'a'}[1.0]` both find `'a'`), as
  /// CEL's heterogeneous equality says; the result says whether the key is of a usable type.
  func lookup(_ value: CELValue) -> (usable: Bool, value: CELValue?) {
    switch value {
    case .bool(let b): return (true, storage[.bool(b)])
    case .string(let s): return (true, storage[.string(s)])
    case .int(let i):
      if let found = storage[.int(i)] { return (true, found) }
      return (true, i >= 0 ? storage[.uint(UInt64(i))] : nil)
    case .uint(let u):
      if let found = storage[.uint(u)] { return (true, found) }
      return (true, u <= UInt64(Int64.max) ? storage[.int(Int64(u))] : nil)
    case .double(let d):
      if let i = Int64(exactly: d), let found = storage[.int(i)] { return (true, found) }
      if let u = UInt64(exactly: d), let found = storage[.uint(u)] { return (true, found) }
      return (true, nil)
    default:
      return (false, nil)
    }
  }
}

extension CELMap {
  /// A map literal's value: keys of a type CEL allows, each once (cel-java rejects duplicates
  /// too, comparing numbers across types: `{1: 'a', 1u: 'b'}` is an error).
  static func literal(_ pairs: [(CELValue, CELValue)]) throws(CELEvaluationError) -> CELMap {
    var map = CELMap()
    for (key, value) in pairs {
      guard let k = Key(key) else {
        throw CELEvaluationError(.invalidArgument, "a map key must be a bool, int, uint or string, not \(key.celType)")
      }
      if map.lookup(key).value != nil {
        throw CELEvaluationError(.invalidArgument, "duplicate map key \(key)")
      }
      map[k] = value
    }
    return map
  }
}

extension CELMap.Key {
  /// The key as a CEL value.
  public var value: CELValue {
    switch self {
    case .bool(let b): .bool(b)
    case .int(let i): .int(i)
    case .uint(let u): .uint(u)
    case .string(let s): .string(s)
    }
  }

  /// The key for a value of a type CEL allows as a map key, else nil.
  public init?(_ value: CELValue) {
    switch value {
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .uint(let u): self = .uint(u)
    case .string(let s): self = .string(s)
    default: return nil
    }
  }
}

extension CELMap.Key: Hashable {
  public static func == (lhs: CELMap.Key, rhs: CELMap.Key) -> Bool {
    switch (lhs, rhs) {
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.uint(let a), .uint(let b)): a == b
    case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .bool(let b): hasher.combine(0); hasher.combine(b)
    case .int(let i): hasher.combine(1); hasher.combine(i)
    case .uint(let u): hasher.combine(2); hasher.combine(u)
    case .string(let s): hasher.combine(3); for unit in s.utf8 { hasher.combine(unit) }
    }
  }
}

extension CELMap.Key: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension CELMap: Hashable {
  /// Same keys with structurally equal values, in any order.
  public static func == (lhs: CELMap, rhs: CELMap) -> Bool {
    lhs.storage == rhs.storage
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage)
  }
}

extension CELMap: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (Key, CELValue)...) {
    self.init(elements)
  }
}

extension CELMap: CustomStringConvertible {
  public var description: String {
    "{" + entries.map { "\($0.key.value): \($0.value)" }.joined(separator: ", ") + "}"
  }
}
