import Foundation
import InstantCore
import OrderedCollections

/// The attrs a backup's `config.json` `schema` asks for, as the reference's restore makes them
/// (`schema-model/plan!` with `check-types? true`):
///
/// - every user attribute and link gets a fresh random attr id and fresh ident ids;
/// - attributes and links the system catalog already has (matched by namespace and label) are not
///   created: the given system attrs, with their fixed ids, stand for them;
/// - namespaces the system catalog does not model (`$streams`, `$magicCodes`, `$oauth*`…) are
///   skipped, with the links that start in them;
/// - each user namespace of `schema.entities` gets an `id` attr (unique, not indexed), and so does
///   each user namespace that has rows in the archive (a namespace whose only attributes are links
///   has none in the schema); a namespace that is only the target of links gets none;
/// - `valueType` becomes `checked-data-type` when it is `string`, `number`, `boolean` or `date`;
///   anything else (`any`, or a name the reference does not know) means unchecked.
struct SchemaReader {
  /// The attrs to create, fresh ids: `id` attrs, then blob attrs, then links.
  var userAttrs: [Attr] = []

  private let entry = BackupLayout.config
  private let system: [String: [String: Attr]]
  private let makeID: () -> String
  /// Every identity taken so far, forward and reverse: `etype \0 label`.
  private var taken: Set<String> = []

  /// Reads `schema`; `rowNamespaces` are the namespaces the archive has `.jsonl` entries for.
  init(schema: JSON, systemAttrs: [Attr], rowNamespaces: [String], makeID: @escaping () -> String) throws(BackupError) {
    var system: [String: [String: Attr]] = [:]
    for attr in systemAttrs {
      system[attr.forwardIdentity.etype, default: [:]][attr.forwardIdentity.label] = attr
    }
    self.system = system
    self.makeID = makeID
    for attr in systemAttrs {
      taken.insert(Self.key(attr.forwardIdentity.etype, attr.forwardIdentity.label))
      if let r = attr.reverseIdentity { taken.insert(Self.key(r.etype, r.label)) }
    }
    guard case let .object(schema) = schema else {
      throw BackupError(.malformedConfig, entry: entry, "\"schema\" must be an object")
    }
    let entities = try object(schema["entities"], "schema.entities")
    let links = try object(schema["links"], "schema.links")

    var idAttrs: [Attr] = []
    var blobAttrs: [Attr] = []
    var linkAttrs: [Attr] = []
    var namespaces: [String] = []

    for (etype, def) in entities {
      let path = "schema.entities[\"\(etype)\"]"
      guard case let .object(def) = def else { throw BackupError(.malformedConfig, entry: entry, "\(path) must be an object") }
      guard isModeled(etype) else { continue }
      namespaces.append(etype)
      for (label, attrDef) in try object(def["attrs"], path + ".attrs") {
        let attrPath = "\(path).attrs[\"\(label)\"]"
        guard case let .object(attrDef) = attrDef else {
          throw BackupError(.malformedConfig, entry: entry, "\(attrPath) must be an object")
        }
        if label == "id" || system[etype]?[label] != nil { continue }
        try claim(etype, label, attrPath)
        let config = try object(attrDef["config"], attrPath + ".config")
        let type = attrDef["valueType"]?.stringValue
        blobAttrs.append(
          Attr(
            id: makeID(), forward: Ident(id: makeID(), etype: etype, label: label), valueType: "blob", cardinality: .one,
            unique: Self.truthy(config["unique"]), indexed: Self.truthy(config["indexed"]),
            checkedDataType: type.flatMap { SchemaWriter.checkedTypes.contains($0) ? $0 : nil },
            extra: ["required?": .bool(attrDef["required"] == .bool(true))]))
      }
    }

    for (name, def) in links {
      let path = "schema.links[\"\(name)\"]"
      guard case let .object(def) = def else { throw BackupError(.malformedConfig, entry: entry, "\(path) must be an object") }
      let forward = try side(def["forward"], path + ".forward")
      let reverse = try side(def["reverse"], path + ".reverse")
      if system[forward.on]?[forward.label] != nil { continue }
      guard isModeled(forward.on), isModeled(reverse.on) else { continue }
      try claim(forward.on, forward.label, path + ".forward")
      try claim(reverse.on, reverse.label, path + ".reverse")
      linkAttrs.append(
        Attr(
          id: makeID(), forward: Ident(id: makeID(), etype: forward.on, label: forward.label),
          reverse: Ident(id: makeID(), etype: reverse.on, label: reverse.label), valueType: "ref",
          cardinality: forward.has, unique: reverse.has == .one, indexed: false,
          onDelete: forward.onDelete, onDeleteReverse: reverse.onDelete,
          extra: ["required?": .bool(forward.required)]))
    }

    for etype in rowNamespaces where isModeled(etype) && !namespaces.contains(etype) { namespaces.append(etype) }
    for etype in namespaces where system[etype]?["id"] == nil && !BackupLayout.isSystemNamespace(etype) {
      try claim(etype, "id", "schema.entities[\"\(etype)\"]")
      idAttrs.append(
        Attr(
          id: makeID(), forward: Ident(id: makeID(), etype: etype, label: "id"), valueType: "blob", cardinality: .one,
          unique: true, indexed: false, extra: ["required?": false]))
    }
    userAttrs = idAttrs + blobAttrs + linkAttrs
  }

  /// Whether restore keeps `etype`: user namespaces, and system namespaces the catalog models.
  func isModeled(_ etype: String) -> Bool { !BackupLayout.isSystemNamespace(etype) || system[etype] != nil }

  private static func key(_ etype: String, _ label: String) -> String { etype + "\u{0}" + label }

  private mutating func claim(_ etype: String, _ label: String, _ path: String) throws(BackupError) {
    guard taken.insert(Self.key(etype, label)).inserted else {
      throw BackupError(.malformedConfig, entry: entry, "\(path): \(etype).\(label) is defined twice")
    }
  }

  private func object(_ value: JSON?, _ path: String) throws(BackupError) -> JSONObject {
    switch value {
    case nil, .null?: return [:]
    case let .object(o)?: return o
    default: throw BackupError(.malformedConfig, entry: entry, "\(path) must be an object")
    }
  }

  private struct Side {
    var on: String
    var label: String
    var has: Cardinality
    var required: Bool
    var onDelete: String?
  }

  private func side(_ value: JSON?, _ path: String) throws(BackupError) -> Side {
    guard case let .object(o)? = value else { throw BackupError(.malformedConfig, entry: entry, "\(path) must be an object") }
    guard let on = o["on"]?.stringValue, !on.isEmpty else {
      throw BackupError(.malformedConfig, entry: entry, "\(path).on must be a namespace name")
    }
    guard let label = o["label"]?.stringValue, !label.isEmpty else {
      throw BackupError(.malformedConfig, entry: entry, "\(path).label must be a label")
    }
    guard let has = o["has"]?.stringValue.flatMap(Cardinality.init(rawValue:)) else {
      throw BackupError(.malformedConfig, entry: entry, "\(path).has must be \"one\" or \"many\"")
    }
    var onDelete: String?
    switch o["onDelete"] {
    case nil, .null?: onDelete = nil
    case .string("cascade")?: onDelete = "cascade"
    default: throw BackupError(.malformedConfig, entry: entry, "\(path).onDelete must be \"cascade\" when present")
    }
    return Side(on: on, label: label, has: has, required: o["required"] == .bool(true), onDelete: onDelete)
  }

  /// Clojure truthiness, as the reference's `boolean` reads `config.unique` and `config.indexed`.
  private static func truthy(_ value: JSON?) -> Bool {
    switch value {
    case nil, .null?, .bool(false)?: false
    default: true
    }
  }
}
