import InstantCore
import OrderedCollections

/// The lines of the `entities/<etype>.jsonl` files, made from triples the way the reference's
/// backup writes them (`flush-ent` in backup.clj):
///
/// `{"entity":{<label>:<value>,…},"createdAt":<ms>}` and a `\n`, no spaces, one line per entity of
/// the namespace, in ascending id order. Keys are forward labels; only the forward side of a link
/// is written, on the forward namespace's line; has-many attributes are arrays (also with one
/// element), has-one values are written as they are. Values are in jsonb text (``JSONBText``).
/// `createdAt` is the time of the entity's `id` triple.
///
/// Where the reference's order is arbitrary, this one is fixed so the same data always gives the
/// same bytes: keys by label (the reference orders by attr id, which for `$users` and `$files`
/// gives the same order), has-many values by their jsonb text.
struct EntityLines {
  /// Per namespace, per entity id, the indices of its triples in ``triples``.
  private(set) var namespaces: [String: [String: [Int]]] = [:]
  private let triples: [Triple]
  private let attrs: [String: Attr]

  /// Groups `triples` by namespace (their attr's forward etype) and entity. Refuses a triple whose
  /// attr is unknown and an entity id that is not a UUID. `$files.url` triples are dropped.
  init(triples: [Triple], attrs: [String: Attr]) throws(BackupError) {
    self.triples = triples
    self.attrs = attrs
    for (index, triple) in triples.enumerated() {
      guard let attr = attrs[triple.attr] else {
        throw BackupError(.invalidInput, "a triple of entity \(triple.entity) has attr \(triple.attr), which is not among the attrs")
      }
      let f = attr.forwardIdentity
      if BackupLayout.isDerived(etype: f.etype, label: f.label) { continue }
      guard UUIDText.isValid(triple.entity) else {
        throw BackupError(.invalidInput, "the entity id \"\(triple.entity)\" (\(f.etype)) is not a UUID, so no backup can hold it")
      }
      namespaces[f.etype, default: [:]][UUIDText.canonical(triple.entity), default: []].append(index)
    }
    for entities in namespaces.values { existing.formUnion(entities.keys) }
  }

  /// Every entity id that gets a line (lower-case).
  private(set) var existing: Set<String> = []

  /// The entity ids of `etype`, lower-case, in the reference's order (Postgres `uuid` order).
  func entityIDs(_ etype: String) -> [String] {
    (namespaces[etype] ?? [:]).keys.sorted { $0.utf8Less($1) }
  }

  /// What one entity's line holds.
  struct Line {
    /// The line, with its `\n`.
    var text: String
    /// How many triples it holds (each element of an array counts).
    var triples: Int
    /// Link values left out because no entity of the backup has the target id.
    var droppedLinks: Int
    /// The `location-id` value, for `$files`.
    var locationID: JSON?
  }

  /// One entity's line. Links to ids that no namespace of the backup has (the store lets a link
  /// name an id that was never created) are left out, since a restore could not resolve them.
  func line(etype: String, entity: String) throws(BackupError) -> Line {
    let indices = namespaces[etype]?[entity] ?? []
    var byLabel: [String: (attr: Attr, values: [Triple])] = [:]
    var dropped = 0
    for index in indices {
      let triple = triples[index]
      guard let attr = attrs[triple.attr] else { continue }
      let label = attr.forwardIdentity.label
      if let existing = byLabel[label], existing.attr.id != attr.id {
        throw BackupError(.invalidInput, "two attrs are named \(etype).\(label) (\(existing.attr.id) and \(attr.id))")
      }
      if attr.isRef {
        guard case let .string(target) = triple.value, UUIDText.isValid(target) else {
          throw BackupError(
            .invalidInput, "\(etype).\(label) of \(entity) links to \(triple.value.serialized()), which is not an entity id")
        }
        if !existing.contains(UUIDText.canonical(target)) {
          dropped += 1
          continue
        }
      }
      byLabel[label, default: (attr, [])].values.append(triple)
    }
    let id = entity
    var createdAt: Double?
    if let idTriples = byLabel["id"]?.values {
      createdAt = idTriples.compactMap(\.createdAt).min()
    } else {
      // The reference writes such a row without "id" (and createdAt 0), which its own restore
      // cannot read back; the entity exists, so write its id, dated by its oldest triple.
      byLabel["id"] = (Attr(id: "", forward: Ident(id: "", etype: etype, label: "id")), [Triple(id, "", .string(id))])
      createdAt = indices.compactMap { triples[$0].createdAt }.min()
    }

    var out = "{\"entity\":{"
    var count = 0
    for (i, label) in byLabel.keys.sorted(by: { $0.utf8Less($1) }).enumerated() {
      guard let (attr, values) = byLabel[label] else { continue }
      if i > 0 { out += "," }
      JSONBText.appendString(label, to: &out)
      out += ":"
      if label == "id" {
        JSONBText.appendString(id, to: &out)
        count += 1
      } else if attr.cardinality == .many {
        let texts = values.map { JSONBText.text(Self.stored($0.value, attr)) }.sorted { $0.utf8Less($1) }
        out += "[" + texts.joined(separator: ",") + "]"
        count += texts.count
      } else {
        guard values.count == 1, let value = values.first?.value else {
          throw BackupError(.invalidInput, "\(etype).\(label) has one value, but entity \(entity) has \(values.count)")
        }
        JSONBText.append(Self.stored(value, attr), to: &out)
        count += 1
      }
    }
    out += "},\"createdAt\":"
    out += String(Self.milliseconds(createdAt))
    out += "}\n"
    let locationID = byLabel[BackupLayout.locationIDLabel].flatMap { $0.values.count == 1 ? $0.values[0].value : nil }
    return Line(text: out, triples: count, droppedLinks: dropped, locationID: locationID)
  }

  /// A time as the reference's `bigint` column holds it: whole milliseconds, `0` when unknown.
  static func milliseconds(_ t: Double?) -> Int64 {
    guard let t, t.isFinite, abs(t) < 9.2e18 else { return 0 }
    return Int64(t.rounded(.down))
  }

  /// A value as the backup stores it: link targets are UUIDs, written lower-case like Postgres does.
  private static func stored(_ value: JSON, _ attr: Attr) -> JSON {
    if attr.isRef, case let .string(s) = value, UUIDText.isValid(s) { return .string(UUIDText.canonical(s)) }
    return value
  }
}
