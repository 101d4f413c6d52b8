import OrderedCollections

/// A JSON syntax error, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What was wrong.
  public var message: String
  /// Byte offset into the input.
  public var offset: Int
  public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

extension JSON {
  /// Parses a complete JSON document (RFC 8259), keeping object keys in their written order.
  ///
  /// Duplicate keys keep the last value at the first key's position, as `JSON.parse` does.
  /// Nesting deeper than `maxDepth` is refused rather than overflowing the stack.
  public static func parse(_ text: String, maxDepth: Int = 512) throws(JSONParseError) -> JSON {
    var copy = text
    let result: Result<JSON, JSONParseError> = copy.withUTF8 { buffer in
      Result { () throws(JSONParseError) -> JSON in try parse(utf8: buffer, maxDepth: maxDepth) }
    }
    return try result.get()
  }

  /// Parses a complete JSON document from UTF-8 bytes.
  public static func parse(bytes: some Collection<UInt8>, maxDepth: Int = 512) throws(JSONParseError) -> JSON {
    let array = Array(bytes)
    let result: Result<JSON, JSONParseError> = array.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONParseError) -> JSON in try parse(utf8: buffer, maxDepth: maxDepth) }
    }
    return try result.get()
  }

  static func parse(utf8 buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONParseError) -> JSON {
    var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.index != buffer.count {
      throw JSONParseError(message: "unexpected trailing characters", offset: parser.index)
    }
    return value
  }
}

struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let maxDepth: Int
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  func fail(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: index) }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) throws(JSONParseError) -> JSON {
    guard index < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw fail("unexpected character '\(Character(UnicodeScalar(bytes[index])))'")
    }
  }

  mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw fail("invalid literal") }
    let start = literal.utf8Start
    for i in 0..<count where bytes[index + i] != start[i] {
      throw fail("invalid literal")
    }
    index += count
  }

  mutating func parseObject(depth: Int) throws(JSONParseError) -> JSON {
    guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth)") }
    index += 1
    var object = JSONObject()
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth)
      object[key] = value
      skipWhitespace()
      guard index < bytes.count else { throw fail("unterminated object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(object)
      }
      throw fail("expected ',' or '}'")
    }
  }

  mutating func parseArray(depth: Int) throws(JSONParseError) -> JSON {
    guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth)") }
    index += 1
    var array: [JSON] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(array)
    }
    while true {
      skipWhitespace()
      array.append(try parseValue(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { throw fail("unterminated array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(array)
      }
      throw fail("expected ',' or ']'")
    }
  }

  mutating func parseString() throws(JSONParseError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return s
      }
      if b == UInt8(ascii: "\\") { break }
      if b < 0x20 { throw fail("control character in string") }
      index += 1
    }
    var scratch: [UInt8] = Array(bytes[start..<index])
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      }
      if b < 0x20 { throw fail("control character in string") }
      if b != UInt8(ascii: "\\") {
        scratch.append(b)
        index += 1
        continue
      }
      index += 1
      guard index < bytes.count else { break }
      let e = bytes[index]
      index += 1
      switch e {
      case UInt8(ascii: "\""): scratch.append(0x22)
      case UInt8(ascii: "\\"): scratch.append(0x5C)
      case UInt8(ascii: "/"): scratch.append(0x2F)
      case UInt8(ascii: "b"): scratch.append(0x08)
      case UInt8(ascii: "f"): scratch.append(0x0C)
      case UInt8(ascii: "n"): scratch.append(0x0A)
      case UInt8(ascii: "r"): scratch.append(0x0D)
      case UInt8(ascii: "t"): scratch.append(0x09)
      case UInt8(ascii: "u"):
        var unit = try parseHex4()
        var scalar: UnicodeScalar?
        if (0xD800...0xDBFF).contains(unit) {
          // A high surrogate: pair it with a following low surrogate when present.
          if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            let save = index
            index += 2
            let low = try parseHex4()
            if (0xDC00...0xDFFF).contains(low) {
              unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
              scalar = UnicodeScalar(unit)
            } else {
              index = save
            }
          }
        } else if !(0xDC00...0xDFFF).contains(unit) {
          scalar = UnicodeScalar(unit)
        }
        // Lone surrogates cannot live in a Swift String; they become U+FFFD.
        scratch.append(contentsOf: String(Character(scalar ?? "\u{FFFD}")).utf8)
      default:
        throw fail("invalid escape")
      }
    }
    throw fail("unterminated string")
  }

  mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[index]
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
      default: throw fail("invalid \\u escape")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  mutating func parseNumber() throws(JSONParseError) -> Double {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw fail("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    } else {
      throw fail("invalid number")
    }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      let digits = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      if index == digits { throw fail("invalid number") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      let digits = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      if index == digits { throw fail("invalid number") }
    }
    let length = index - start
    if isInteger, length <= 15 {
      var value: Int64 = 0
      var i = start
      let negative = bytes[i] == UInt8(ascii: "-")
      if negative { i += 1 }
      while i < index {
        value = value * 10 + Int64(bytes[i] - UInt8(ascii: "0"))
        i += 1
      }
      if negative { return value == 0 ? -0.0 : -Double(value) }
      return Double(value)
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text) else { throw fail("invalid number") }
    return value
  }
}
