import OrderedCollections
extension JSON: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Each `try?` below asks "is it this type?"; a value that is none of them throws at the end.
    if container.decodeNil() {
      self = .null
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? container.decode(Double.self) {
      self = .number(n)
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let a = try? container.decode([JSON].self) {
      self = .array(a)
    } else if let o = try? container.decode([String: JSON].self) {
      var object = JSONObject(minimumCapacity: o.count)
      for key in o.keys.sorted() { object[key] = o[key] }
      self = .object(object)
    } else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case let .bool(b): try container.encode(b)
    case let .number(n): try container.encode(n)
    case let .string(s): try container.encode(s)
    case let .array(a): try container.encode(a)
    case let .object(o): try container.encode(Dictionary(uniqueKeysWithValues: o.map { ($0.key, $0.value) }))
    }
  }
}

extension JSON {
  /// The reference client's `weakHash`: a stable 64-bit hash of the canonical (sorted-key) text,
  /// as 16 hex digits. Equal queries have equal hashes whatever their key order.
  public var stableHash: String {
    let units = Array(canonicalString.utf16)
    var h1: UInt32 = 0xdead_beef ^ UInt32(truncatingIfNeeded: units.count)
    var h2: UInt32 = 0x41c6_ce57 ^ UInt32(truncatingIfNeeded: units.count)
    for ch in units {
      h1 = (h1 ^ UInt32(ch)) &* 2_654_435_761
      h2 = (h2 ^ UInt32(ch)) &* 1_597_334_677
    }
    h1 = ((h1 ^ (h1 >> 16)) &* 2_246_822_507) ^ ((h2 ^ (h2 >> 13)) &* 3_266_489_909)
    h2 = ((h2 ^ (h2 >> 16)) &* 2_246_822_507) ^ ((h1 ^ (h1 >> 13)) &* 3_266_489_909)
    func hex(_ v: UInt32) -> String {
      let s = String(v, radix: 16)
      return String(repeating: "0", count: 8 - s.count) + s
    }
    return hex(h2) + hex(h1)
  }
}
