/// Which entity an operation targets: its id, or a lookup by a unique attribute
/// (`lookup("email", "a@b.com")`, or `"link.id"` to look up by a linked entity's id).
public enum EntityRef: Sendable, Hashable {
  case id(String)
  case lookup(String, JSON)

  /// The reference's JSON spelling: the id string, or `[attrName, value]`.
  public var json: JSON {
    switch self {
    case let .id(id): return .string(id)
    case let .lookup(attr, value): return .array([.string(attr), value])
    }
  }
}

/// One InstaML operation, `[action, etype, id-or-lookup, args, opts?]` in the reference client.
public struct InstaMLOp: Sendable, Hashable {
  public enum Action: String, Sendable {
    case create, update, merge, delete, link, unlink, ruleParams
  }

  public var action: Action
  public var etype: String
  /// An id string, a lookup `[attr, value]`, a `"lookup__attr__json"` string or a one-key object.
  public var entity: JSON
  public var args: JSON?
  /// `{"upsert": true|false}` for update and merge.
  public var opts: JSON?

  public init(_ action: Action, _ etype: String, _ entity: JSON, _ args: JSON? = nil, opts: JSON? = nil) {
    self.action = action
    self.etype = etype
    self.entity = entity
    self.args = args
    self.opts = opts
  }

  /// The reference's array, `[action, etype, id-or-lookup, args, opts?]`: what the admin SDK
  /// sends in `/admin/transact`'s `steps`.
  public var json: JSON {
    var parts: [JSON] = [.string(action.rawValue), .string(etype), entity, args ?? .null]
    if let opts { parts.append(opts) }
    return .array(parts)
  }

  /// Reads the reference's array back; `nil` when it is not one (an unknown action, a missing
  /// namespace or id).
  public init?(json: JSON) {
    guard case let .array(parts) = json, parts.count >= 3, parts.count <= 5,
      let action = parts[0].stringValue.flatMap(Action.init(rawValue:)), let etype = parts[1].stringValue
    else { return nil }
    let args = parts.count > 3 && parts[3] != .null ? parts[3] : nil
    self.init(action, etype, parts[2], args, opts: parts.count > 4 ? parts[4] : nil)
  }

  /// Creates an entity; fails on the server if it already exists.
  public static func create(_ etype: String, _ entity: EntityRef, _ values: JSONObject) -> InstaMLOp {
    InstaMLOp(.create, etype, entity.json, .object(values))
  }

  /// Sets attributes. `upsert: false` refuses to create a missing entity; `nil` lets the client
  /// decide (update if it has seen the entity, else upsert), as the reference does.
  public static func update(_ etype: String, _ entity: EntityRef, _ values: JSONObject, upsert: Bool? = nil)
    -> InstaMLOp
  {
    InstaMLOp(.update, etype, entity.json, .object(values), opts: upsert.map { ["upsert": .bool($0)] })
  }

  /// Deep-merges JSON values into attributes.
  public static func merge(_ etype: String, _ entity: EntityRef, _ values: JSONObject, upsert: Bool? = nil)
    -> InstaMLOp
  {
    InstaMLOp(.merge, etype, entity.json, .object(values), opts: upsert.map { ["upsert": .bool($0)] })
  }

  public static func delete(_ etype: String, _ entity: EntityRef) -> InstaMLOp {
    InstaMLOp(.delete, etype, entity.json)
  }

  /// Links this entity to others by label (forward or reverse); each value is an id, a lookup,
  /// or an array of them.
  public static func link(_ etype: String, _ entity: EntityRef, _ links: JSONObject) -> InstaMLOp {
    InstaMLOp(.link, etype, entity.json, .object(links))
  }

  public static func unlink(_ etype: String, _ entity: EntityRef, _ links: JSONObject) -> InstaMLOp {
    InstaMLOp(.unlink, etype, entity.json, .object(links))
  }

  public static func ruleParams(_ etype: String, _ entity: EntityRef, _ params: JSONObject) -> InstaMLOp {
    InstaMLOp(.ruleParams, etype, entity.json, .object(params))
  }
}
