import InstantCore
import OrderedCollections

/// The `schema` of `config.json` from an app's attrs, in the reference's shape
/// (`schema/schema->defs` of `attrs->schema`):
///
/// ```json
/// {"entities": {"<etype>": {"attrs": {"<label>": {"valueType": "string", "config": {"unique": true, "indexed": true}, "required": true}}}},
///  "links": {"<etype><Label>": {"forward": {"on", "label", "has", "required"?, "onDelete"?},
///                              "reverse": {"on", "label", "has", "onDelete"?}}}}
/// ```
///
/// The reference's maps are hash maps, so its key order is arbitrary; here namespaces, labels and
/// link names are in byte order, so the same attrs always give the same bytes.
enum SchemaWriter {
  /// The checked data types a schema can name; anything else is written as `"any"`.
  static let checkedTypes: Set<String> = ["string", "number", "boolean", "date"]

  static func schema(_ attrs: [Attr]) throws(BackupError) -> JSON {
    var blobs: [String: [String: Attr]] = [:]
    var links: [String: JSON] = [:]
    for attr in attrs {
      let f = attr.forwardIdentity
      if BackupLayout.isHiddenFromSchema(etype: f.etype, label: f.label, isSystem: isSystem(attr)) { continue }
      if attr.isRef {
        guard let r = attr.reverseIdentity else {
          throw BackupError(.invalidInput, "the link \(attr.qualifiedName) (attr \(attr.id)) has no reverse identity")
        }
        var forward: JSONObject = [
          "on": .string(f.etype), "label": .string(f.label), "has": .string((attr.cardinality ?? .many).rawValue),
        ]
        if attr.isRequired { forward["required"] = true }
        if attr.onDelete == "cascade" { forward["onDelete"] = "cascade" }
        var reverse: JSONObject = [
          "on": .string(r.etype), "label": .string(r.label), "has": .string(attr.isUnique ? "one" : "many"),
        ]
        if attr.onDeleteReverse == "cascade" { reverse["onDelete"] = "cascade" }
        // The reference keys links by this name and would lose one of two links that share it;
        // a suffix keeps both (restore does not use the name).
        let base = f.etype + f.label.prefix(1).uppercased() + f.label.dropFirst()
        var name = base
        var n = 2
        while links[name] != nil {
          name = base + String(n)
          n += 1
        }
        links[name] = ["forward": .object(forward), "reverse": .object(reverse)]
      } else {
        if blobs[f.etype]?[f.label] != nil {
          throw BackupError(.invalidInput, "two attrs are named \(attr.qualifiedName)")
        }
        blobs[f.etype, default: [:]][f.label] = attr
      }
    }
    var entities = JSONObject()
    for etype in blobs.keys.sorted(by: { $0.utf8Less($1) }) {
      var defs = JSONObject()
      let byLabel = blobs[etype] ?? [:]
      for label in byLabel.keys.sorted(by: { $0.utf8Less($1) }) where label != "id" {
        guard let attr = byLabel[label] else { continue }
        let type = attr.checkedDataType.flatMap { checkedTypes.contains($0) ? $0 : nil } ?? "any"
        var def: JSONObject = [
          "valueType": .string(type),
          "config": ["unique": .bool(attr.isUnique), "indexed": .bool(attr.isIndexed)],
        ]
        // `$files.url` is derived and optional in storage, but the reference shows it as required.
        if attr.isRequired || BackupLayout.isDerived(etype: etype, label: label) { def["required"] = true }
        defs[label] = .object(def)
      }
      entities[etype] = ["attrs": .object(defs)]
    }
    var sortedLinks = JSONObject()
    for name in links.keys.sorted(by: { $0.utf8Less($1) }) { sortedLinks[name] = links[name] }
    return ["entities": .object(entities), "links": .object(sortedLinks)]
  }

  /// Whether `attr` is a system-catalog attr (`"catalog": "system"`).
  static func isSystem(_ attr: Attr) -> Bool { attr.json["catalog"]?.stringValue == "system" }
}
