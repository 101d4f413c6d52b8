public import OrderedCollections

/// One side's name of an attribute: `[ident-id, etype, label]` on the wire.
public struct Ident: Sendable, Hashable {
  public var id: String
  public var etype: String
  public var label: String

  public init(id: String, etype: String, label: String) {
    self.id = id
    self.etype = etype
    self.label = label
  }

  init?(json: JSON?) {
    guard let a = json?.arrayValue, a.count >= 3, let etype = a[1].stringValue, let label = a[2].stringValue
    else { return nil }
    self.init(id: a[0].stringValue ?? "", etype: etype, label: label)
  }

  public var json: JSON { .array([.string(id), .string(etype), .string(label)]) }
}

/// An InstantDB attribute (docs/protocol.md, "Attrs"): the schema of one field or link.
///
/// Every member of the wire object is kept in ``json`` (unknown ones included), so an attr
/// round-trips unchanged; the typed properties are read from it.
public struct Attr: Sendable, Hashable {
  /// The attr object exactly as received, with any later `update-attr` merged in.
  public private(set) var json: JSONObject
  public let id: String
  public let forwardIdentity: Ident
  public let reverseIdentity: Ident?
  /// `"blob"` or `"ref"` (kept as a string: other values are neither).
  public let valueType: String
  /// `nil` when the attr's JSON names neither `one` nor `many` (a server refuses such an attr).
  public let cardinality: Cardinality?
  public let isUnique: Bool
  public let isIndexed: Bool
  public let isRequired: Bool
  public let isPrimary: Bool
  /// `"string"`, `"number"`, `"boolean"`, `"date"`, or `nil` for any JSON.
  public let checkedDataType: String?
  public let onDelete: String?
  public let onDeleteReverse: String?

  /// Why an attr object was refused.
  public struct Invalid: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// Reads an attr from its wire object. It needs a string `id` and a `forward-identity` of
  /// three strings; everything else is optional.
  public init(json: JSONObject) throws(Invalid) {
    guard let id = json["id"]?.stringValue else {
      throw Invalid(description: "attr without a string \"id\": \(JSON.object(json).serialized())")
    }
    guard let forward = Ident(json: json["forward-identity"]) else {
      throw Invalid(description: "attr \(id) has no valid \"forward-identity\" [ident-id, etype, label]")
    }
    self.json = json
    self.id = id
    self.forwardIdentity = forward
    self.reverseIdentity = Ident(json: json["reverse-identity"])
    self.valueType = json["value-type"]?.stringValue ?? ""
    self.cardinality = json["cardinality"]?.stringValue.flatMap(Cardinality.init(rawValue:))
    self.isUnique = JSValue(json["unique?"]).isTruthy
    self.isIndexed = JSValue(json["index?"]).isTruthy
    self.isRequired = JSValue(json["required?"]).isTruthy
    self.isPrimary = JSValue(json["primary?"]).isTruthy
    self.checkedDataType = json["checked-data-type"]?.stringValue
    self.onDelete = json["on-delete"]?.stringValue
    self.onDeleteReverse = json["on-delete-reverse"]?.stringValue
  }

  /// Reads an attr from a JSON value that must be an object.
  public init(json: JSON) throws(Invalid) {
    guard case let .object(o) = json else { throw Invalid(description: "attr is not an object: \(json)") }
    try self.init(json: o)
  }

  /// Builds an attr from typed fields, as the wire would carry it.
  public init(
    id: String, forward: Ident, reverse: Ident? = nil, valueType: String = "blob",
    cardinality: Cardinality = .one, unique: Bool = false, indexed: Bool = false,
    checkedDataType: String? = nil, onDelete: String? = nil, onDeleteReverse: String? = nil,
    extra: JSONObject = [:]
  ) {
    var o: JSONObject = [
      "id": .string(id), "forward-identity": forward.json, "value-type": .string(valueType),
      "cardinality": .string(cardinality.rawValue), "unique?": .bool(unique), "index?": .bool(indexed),
    ]
    if let reverse { o["reverse-identity"] = reverse.json }
    if let checkedDataType { o["checked-data-type"] = .string(checkedDataType) }
    if let onDelete { o["on-delete"] = .string(onDelete) }
    if let onDeleteReverse { o["on-delete-reverse"] = .string(onDeleteReverse) }
    for (k, v) in extra { o[k] = v }
    try! self.init(json: o)
  }

  public var isRef: Bool { valueType == "ref" }
  public var isBlob: Bool { valueType == "blob" }
  public var isCardinalityOne: Bool { cardinality == .one }
  public var isDate: Bool { checkedDataType == "date" }
  /// `namespace.label`, how messages name an attr.
  public var qualifiedName: String { "\(forwardIdentity.etype).\(forwardIdentity.label)" }

  /// This attr with `partial`'s members merged over it (`{...attr, ...partial}`).
  public func merging(_ partial: JSONObject) throws(Invalid) -> Attr {
    var merged = json
    for (k, v) in partial { merged[k] = v }
    return try Attr(json: merged)
  }

  public static func == (a: Attr, b: Attr) -> Bool { JSON.object(a.json) == JSON.object(b.json) }
  public func hash(into hasher: inout Hasher) { hasher.combine(JSON.object(json)) }
}

extension Attr {
  /// Whether `value` fits the attr's checked data type as the store checks it: `null` always fits,
  /// an unchecked attr takes anything, and a date is a finite number or a string JavaScript's
  /// `Date` can parse.
  package func accepts(_ value: JSON) -> Bool {
    guard let type = checkedDataType, value != .null else { return true }
    switch type {
    case "string": return value.stringValue != nil
    case "number": return value.numberValue != nil
    case "boolean": return value.boolValue != nil
    case "date":
      switch value {
      case let .number(n): return n.isFinite
      case let .string(s): return !JSDate.parse(s).isNaN
      default: return false
      }
    default: return true
    }
  }
}
