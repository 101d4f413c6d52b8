public import OrderedCollections

/// The attrs of an app, with the lookups the engine needs: by id, by forward identity
/// `(etype, label)`, by reverse identity, the blob attrs of an etype, and each etype's id attr.
///
/// When two attrs claim the same identity, the one added later wins, as in the reference client.
public struct AttrStore: Sendable {
  public private(set) var attrs: OrderedDictionary<String, Attr> = [:]
  /// The schema's link index (`{etype: {label: {isForward, isSingular, ...}}}`), used for
  /// cardinality inference.
  public var linkIndex: JSON? { didSet { version = Version() } }
  /// Replaced on every change: two stores whose attrs have the same version have the same attrs
  /// (compiled queries are reused only then).
  private(set) var version = Version()

  /// An identity for one state of the attrs.
  final class Version: Sendable {}

  private var forwardIdents: [String: [String: Attr]] = [:]
  private var reverseIdents: [String: [String: Attr]] = [:]
  private var blobAttrsByEtype: [String: OrderedDictionary<String, Attr>] = [:]
  private var primaryKeys: [String: Attr] = [:]

  public init(_ attrs: some Sequence<Attr> = [], linkIndex: JSON? = nil) {
    for attr in attrs { self.attrs[attr.id] = attr }
    self.linkIndex = linkIndex
    reindex()
  }

  /// Reads `attrs.json` in either shape: an array of attrs or an object keyed by attr id.
  public init(json: JSON, linkIndex: JSON? = nil) throws(Attr.Invalid) {
    var list: [Attr] = []
    switch json {
    case let .array(items):
      for item in items { list.append(try Attr(json: item)) }
    case let .object(byId):
      for (_, item) in byId { list.append(try Attr(json: item)) }
    default:
      throw Attr.Invalid(description: "attrs must be an array or an object keyed by id")
    }
    self.init(list, linkIndex: linkIndex)
  }

  private mutating func reindex() {
    version = Version()
    forwardIdents = [:]
    reverseIdents = [:]
    blobAttrsByEtype = [:]
    primaryKeys = [:]
    for attr in attrs.values {
      let f = attr.forwardIdentity
      forwardIdents[f.etype, default: [:]][f.label] = attr
      if attr.isBlob { blobAttrsByEtype[f.etype, default: [:]][f.label] = attr }
      if attr.isPrimary { primaryKeys[f.etype] = attr }
      if let r = attr.reverseIdentity { reverseIdents[r.etype, default: [:]][r.label] = attr }
    }
  }

  public subscript(id: String) -> Attr? { attrs[id] }

  public var count: Int { attrs.count }

  public mutating func add(_ attr: Attr) {
    attrs[attr.id] = attr
    reindex()
  }

  public mutating func remove(id: String) {
    attrs.removeValue(forKey: id)
    reindex()
  }

  /// Merges `partial` (which names the attr by `id`) into the existing attr; unknown ids are ignored.
  public mutating func update(_ partial: JSONObject) throws(Attr.Invalid) {
    guard let id = partial["id"]?.stringValue, let attr = attrs[id] else { return }
    attrs[id] = try attr.merging(partial)
    reindex()
  }

  public func forward(_ etype: String, _ label: String) -> Attr? { forwardIdents[etype]?[label] }
  public func reverse(_ etype: String, _ label: String) -> Attr? { reverseIdents[etype]?[label] }

  /// The blob attrs of `etype`, by label.
  public func blobAttrs(_ etype: String) -> OrderedDictionary<String, Attr>? { blobAttrsByEtype[etype] }

  /// The attr that holds `etype`'s entity ids: the `primary?` attr if there is one, else `etype.id`.
  public func primaryKey(_ etype: String) -> Attr? { primaryKeys[etype] ?? forwardIdents[etype]?["id"] }

  /// Whether the schema's link index marks `(etype, label)` as a has-one link.
  public func isSingularLink(_ etype: String, _ label: String) -> Bool {
    JSValue(linkIndex?[etype]?[label]?["isSingular"]).isTruthy
  }

  /// The link index the reference server infers from the attrs themselves (the admin API's
  /// `inference?`): a link is singular forward when its attr's cardinality is `one`, and in
  /// reverse when its attr is unique (a has-one on that side).
  public var inferredLinkIndex: JSON {
    var index: [String: JSONObject] = [:]
    for attr in attrs.values where attr.isRef {
      let forward = attr.forwardIdentity
      index[forward.etype, default: [:]][forward.label] = ["isSingular": .bool(attr.isCardinalityOne)]
      if let reverse = attr.reverseIdentity {
        index[reverse.etype, default: [:]][reverse.label] = ["isSingular": .bool(attr.isUnique)]
      }
    }
    return .object(JSONObject(uniqueKeysWithValues: index.map { ($0.key, JSON.object($0.value)) }))
  }

  /// All attrs as the wire array.
  public var json: JSON { .array(attrs.values.map { .object($0.json) }) }
}
