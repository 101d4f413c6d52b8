import OrderedCollections

/// Decodes a `Decodable` value straight from a ``JSON`` value, without writing it out as text and
/// parsing it again (what `JSONDecoder` would need). Numbers decode to any numeric type that holds
/// them exactly; a `Date` decodes as `Date` itself does (seconds since 2001, as `JSONDecoder`'s
/// default); errors are `DecodingError`s with the coding path, as `JSONDecoder` throws.
public struct JSONValueDecoder: Sendable {
  public init() {}

  public func decode<T: Decodable>(_ type: T.Type = T.self, from json: JSON) throws -> T {
    if let value = json as? T { return value }
    return try T(from: ValueDecoder(json, path: []))
  }
}

private struct ValueDecoder: Decoder {
  let value: JSON
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(_ value: JSON, path: [any CodingKey]) {
    self.value = value
    self.codingPath = path
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case let .object(object) = value else { throw mismatch([String: JSON].self, value, codingPath) }
    return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case let .array(array) = value else { throw mismatch([JSON].self, value, codingPath) }
    return UnkeyedContainer(array: array, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(value: value, codingPath: codingPath) }
}

private func mismatch(_ type: Any.Type, _ value: JSON, _ path: [any CodingKey]) -> DecodingError {
  let found: String
  switch value {
  case .null: found = "null"
  case .bool: found = "a boolean"
  case .number: found = "a number"
  case .string: found = "a string"
  case .array: found = "an array"
  case .object: found = "an object"
  }
  return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected \(type) but found \(found) instead."))
}

/// Reads scalars out of one JSON value; shared by the three containers.
private func scalar<T>(_ type: T.Type, _ value: JSON, _ path: [any CodingKey]) throws -> T {
  switch value {
  case let .bool(b) where T.self == Bool.self: return b as! T
  case let .string(s) where T.self == String.self: return s as! T
  case let .number(n):
    if T.self == Double.self { return n as! T }
    if T.self == Float.self { return Float(n) as! T }
    if let integer = exactInteger(T.self, n) { return integer as! T }
    if T.self is any BinaryInteger.Type {
      throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Number \(n) does not fit in \(T.self)."))
    }
  default: break
  }
  throw mismatch(T.self, value, path)
}

private func exactInteger(_ type: Any.Type, _ n: Double) -> Any? {
  switch type {
  case is Int.Type: Int(exactly: n)
  case is Int8.Type: Int8(exactly: n)
  case is Int16.Type: Int16(exactly: n)
  case is Int32.Type: Int32(exactly: n)
  case is Int64.Type: Int64(exactly: n)
  case is UInt.Type: UInt(exactly: n)
  case is UInt8.Type: UInt8(exactly: n)
  case is UInt16.Type: UInt16(exactly: n)
  case is UInt32.Type: UInt32(exactly: n)
  case is UInt64.Type: UInt64(exactly: n)
  default: nil
  }
}

private func decodeValue<T: Decodable>(_ type: T.Type, _ value: JSON, _ path: [any CodingKey]) throws -> T {
  if let json = value as? T { return json }
  switch type {
  case is Bool.Type, is String.Type, is Double.Type, is Float.Type: return try scalar(T.self, value, path)
  default:
    if exactInteger(T.self, 0) != nil { return try scalar(T.self, value, path) }
    return try T(from: ValueDecoder(value, path: path))
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let codingPath: [any CodingKey]

  var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }
  func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

  private func value(_ key: Key) throws -> JSON {
    guard let value = object[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "No value associated with key \"\(key.stringValue)\"."))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decodeValue(type, try value(key), codingPath + [key])
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = object[key.stringValue], value != .null else { return nil }
    return try decodeValue(type, value, codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try ValueDecoder(try value(key), path: codingPath + [key]).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try ValueDecoder(try value(key), path: codingPath + [key]).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(object["super"] ?? .null, path: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(object[key.stringValue] ?? .null, path: codingPath + [key])
  }
}

private struct IndexKey: CodingKey {
  var stringValue: String { "Index \(intValue!)" }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
  let array: [JSON]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(array: [JSON], codingPath: [any CodingKey]) {
    self.array = array
    self.codingPath = codingPath
  }

  var count: Int? { array.count }
  var isAtEnd: Bool { currentIndex >= array.count }

  private mutating func next<T>(_ type: T.Type) throws -> (JSON, [any CodingKey]) {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
    }
    defer { currentIndex += 1 }
    return (array[currentIndex], codingPath + [IndexKey(currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, array[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (value, path) = try next(type)
    return try decodeValue(type, value, path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    let (value, path) = try next([String: JSON].self)
    return try ValueDecoder(value, path: path).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (value, path) = try next([JSON].self)
    return try ValueDecoder(value, path: path).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (value, path) = try next(JSON.self)
    return ValueDecoder(value, path: path)
  }
}

private struct SingleContainer: SingleValueDecodingContainer {
  let value: JSON
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { value == .null }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decodeValue(type, value, codingPath)
  }
}
