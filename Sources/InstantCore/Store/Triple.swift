/// One fact: entity `entity` has value `value` for attr `attr`, created at `createdAt`
/// (server milliseconds since the epoch; `nil` when the source carried no time).
public struct Triple: Sendable, Hashable {
  public var entity: String
  public var attr: String
  public var value: JSON
  public var createdAt: Double?

  public init(_ entity: String, _ attr: String, _ value: JSON, _ createdAt: Double? = nil) {
    self.entity = entity
    self.attr = attr
    self.value = value
    self.createdAt = createdAt
  }

  /// Reads a wire triple `[e, a, v]` or `[e, a, v, t]`.
  public init?(json: JSON) {
    guard let row = json.arrayValue, row.count >= 3, let e = row[0].stringValue, let a = row[1].stringValue
    else { return nil }
    var t: Double? = nil
    if row.count >= 4, case let .number(n) = row[3] { t = n }
    self.init(e, a, row[2], t)
  }

  /// `[e, a, v, t]`, or `[e, a, v]` without a time.
  public var json: JSON {
    var row: [JSON] = [.string(entity), .string(attr), value]
    if let createdAt { row.append(.number(createdAt)) }
    return .array(row)
  }
}

/// A triple as the store keeps it: 32 bytes, every string interned.
struct TripleRecord: Sendable {
  var e: UInt32
  var a: UInt32
  var v: ValueKey
  /// Creation time; NaN when unknown.
  var t: Double

  static let deadEntity = UInt32.max
  var isLive: Bool { e != TripleRecord.deadEntity }
}

/// One attr's values on one entity.
struct AttrSlot: Sendable {
  var attr: UInt32
  /// When this (entity, attr) pair first got a value: the position of the entity in the
  /// reference's `aev[attr]` map, which decides the order of attr scans.
  var seq: UInt32
  var triples: IndexList
}

/// The entities that point at one target through one ref attr.
struct ReverseSlot: Sendable {
  var attr: UInt32
  var sources: IndexList
}
