import OrderedCollections

/// The parts of an app's schema (`instant.schema.ts`) the client engine uses: attribute types
/// and flags for attrs it creates on the fly, and links for their identities, cardinality and
/// cascades (and for has-one inference in query results).
public struct ClientSchema: Sendable, Hashable {
  public struct Attribute: Sendable, Hashable {
    /// `string`, `number`, `boolean`, `date` or `json`.
    public var valueType: String
    public var unique: Bool
    public var indexed: Bool

    public init(_ valueType: String, unique: Bool = false, indexed: Bool = false) {
      self.valueType = valueType
      self.unique = unique
      self.indexed = indexed
    }
  }

  public struct LinkSide: Sendable, Hashable {
    public var on: String
    public var has: Cardinality
    public var label: String
    public var onDelete: String?

    public init(on: String, has: Cardinality, label: String, onDelete: String? = nil) {
      self.on = on
      self.has = has
      self.label = label
      self.onDelete = onDelete
    }
  }

  public struct Link: Sendable, Hashable {
    public var forward: LinkSide
    public var reverse: LinkSide

    public init(forward: LinkSide, reverse: LinkSide) {
      self.forward = forward
      self.reverse = reverse
    }
  }

  public var entities: [String: [String: Attribute]]
  public var links: [Link]

  public init(entities: [String: [String: Attribute]], links: [Link] = []) {
    self.entities = entities
    self.links = links
  }

  func link(_ etype: String, _ label: String) -> Link? {
    links.first {
      ($0.forward.on == etype && $0.forward.label == label) || ($0.reverse.on == etype && $0.reverse.label == label)
    }
  }

  /// `{etype: {label: {isForward, isSingular}}}` for cardinality inference.
  public var linkIndex: JSON {
    var index = JSONObject()
    for link in links {
      for (side, isForward) in [(link.forward, true), (link.reverse, false)] {
        var byLabel = index[side.on]?.objectValue ?? [:]
        byLabel[side.label] = ["isForward": .bool(isForward), "isSingular": .bool(side.has == .one)]
        index[side.on] = .object(byLabel)
      }
    }
    return .object(index)
  }
}

extension ClientSchema {
  /// Reads `{"entities": {etype: {label: {"valueType", "unique", "indexed"}}}, "links": {name:
  /// {"forward": {"on", "has", "label", "onDelete"?}, "reverse": {…}}}}`.
  public init(json: JSON) throws(InstaMLError) {
    var entities: [String: [String: Attribute]] = [:]
    for (etype, attrs) in json["entities"]?.objectValue ?? [:] {
      var byLabel: [String: Attribute] = [:]
      for (label, a) in attrs.objectValue ?? [:] {
        byLabel[label] = Attribute(
          a["valueType"]?.stringValue ?? "json", unique: a["unique"]?.boolValue ?? false,
          indexed: a["indexed"]?.boolValue ?? false)
      }
      entities[etype] = byLabel
    }
    var links: [Link] = []
    for (name, link) in json["links"]?.objectValue ?? [:] {
      func side(_ key: String) throws(InstaMLError) -> LinkSide {
        guard let s = link[key], let on = s["on"]?.stringValue, let hasText = s["has"]?.stringValue,
          let label = s["label"]?.stringValue
        else { throw .invalidSchema("link \(name).\(key) needs on, has and label") }
        guard let has = Cardinality(rawValue: hasText) else {
          throw .invalidSchema("link \(name).\(key) has `has: \(hasText)`; it must be one or many")
        }
        return LinkSide(on: on, has: has, label: label, onDelete: s["onDelete"]?.stringValue)
      }
      links.append(Link(forward: try side("forward"), reverse: try side("reverse")))
    }
    self.init(entities: entities, links: links)
  }
}
