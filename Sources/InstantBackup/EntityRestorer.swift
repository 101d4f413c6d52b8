import InstantCore
import OrderedCollections

/// Turns the lines of `entities/<etype>.jsonl` into triples, checking each one, and remembers what
/// can only be checked once every line is read (links, `$files` blobs).
struct EntityRestorer {
  private(set) var triples: [Triple] = []
  /// `$files` rows, in order: their location id, entity id and line.
  private(set) var fileRows: [(locationID: String, fileID: String, line: Int)] = []

  private let attrs: [String: [String: Attr]]
  /// Per namespace, each id and the line it is on.
  private var ids: [String: [String: Int]] = [:]
  /// Every entity id of the restored namespaces.
  private var allIDs: Set<String> = []
  private var links: [PendingLink] = []
  /// Per unique attr id, each value and the entity and line that have it.
  private var uniques: [String: [JSON: (entity: String, line: Int)]] = [:]

  private struct PendingLink {
    var target: String
    var attr: String
    var entry: String
    var line: Int
  }

  init(attrs: [Attr]) {
    var byIdent: [String: [String: Attr]] = [:]
    for attr in attrs { byIdent[attr.forwardIdentity.etype, default: [:]][attr.forwardIdentity.label] = attr }
    self.attrs = byIdent
  }

  /// Reads one non-blank line of a restored namespace.
  mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, etype: String, entry: String, number: Int) throws(BackupError) {
    let (entity, createdAt) = try Self.parse(bytes, entry: entry, number: number)
    func fail(_ kind: BackupError.Kind, _ message: String) -> BackupError {
      BackupError(kind, entry: entry, line: number, message)
    }
    guard let rawID = entity["id"] else { throw fail(.missingEntityID, "the entity has no \"id\"") }
    guard case let .string(rawIDString) = rawID else { throw fail(.missingEntityID, "entity.id must be a string, not \(Self.preview(rawID))") }
    guard UUIDText.isValid(rawIDString) else { throw fail(.invalidEntityID, "entity.id \(Self.preview(rawID)) is not a UUID") }
    let id = UUIDText.canonical(rawIDString)
    if let first = ids[etype]?[id] {
      throw fail(.duplicateEntityID, "the id \(id) is already on line \(first) of this namespace")
    }
    ids[etype, default: [:]][id] = number
    allIDs.insert(id)

    if etype == BackupLayout.filesNamespace {
      guard case let .string(locationID)? = entity[BackupLayout.locationIDLabel], !locationID.isEmpty else {
        throw fail(.missingLocationID, "Backup is missing the location-id for a $files entity (\(id))")
      }
      guard BackupLayout.isSafeLocationID(locationID) else {
        throw fail(.unsafeEntryName, "the location-id \(Self.preview(.string(locationID))) cannot name a files/ entry (path traversal)")
      }
      fileRows.append((locationID, id, number))
    }

    for (key, value) in entity {
      if BackupLayout.isDerived(etype: etype, label: key) {
        throw fail(.missingAttr, "Missing attr for \(etype).\(key) (it is derived from the stored file and is never backed up)")
      }
      guard let attr = attrs[etype]?[key] else { throw fail(.missingAttr, "Missing attr for \(etype).\(key)") }
      if key == "id" {
        triples.append(Triple(id, attr.id, .string(id), createdAt))
        continue
      }
      if attr.cardinality == .many {
        guard case let .array(items) = value else {
          throw fail(.invalidValue, "\(etype).\(key) has many values, so it must be an array, not \(Self.preview(value))")
        }
        for item in items { try add(item, attr, entity: id, createdAt, entry: entry, number: number) }
      } else {
        try add(value, attr, entity: id, createdAt, entry: entry, number: number)
      }
    }
  }

  private mutating func add(
    _ raw: JSON, _ attr: Attr, entity: String, _ createdAt: Double?, entry: String, number: Int
  ) throws(BackupError) {
    var value = raw
    if attr.isRef {
      guard case let .string(target) = raw, UUIDText.isValid(target) else {
        throw BackupError(
          .invalidValue, entry: entry, line: number, "\(attr.qualifiedName) links to \(Self.preview(raw)), which is not a UUID")
      }
      value = .string(UUIDText.canonical(target))
      links.append(PendingLink(target: UUIDText.canonical(target), attr: attr.qualifiedName, entry: entry, line: number))
    } else if let problem = Self.typeProblem(attr, raw) {
      throw BackupError(.invalidValue, entry: entry, line: number, problem)
    }
    if attr.isUnique, value != .null {
      if let other = uniques[attr.id]?[value], other.entity != entity {
        throw BackupError(
          .uniqueConflict, entry: entry, line: number,
          "\(attr.qualifiedName) is unique, but \(Self.preview(value)) is also the value of \(other.entity) on line \(other.line)")
      }
      uniques[attr.id, default: [:]][value] = (entity, number)
    }
    triples.append(Triple(entity, attr.id, value, createdAt))
  }

  /// Checks that every link points at an entity of a restored namespace.
  func checkLinks() throws(BackupError) {
    for link in links where !allIDs.contains(link.target) {
      throw BackupError(
        .danglingLink, entry: link.entry, line: link.line,
        "\(link.attr) links to \(link.target), which is not an entity anywhere in the backup")
    }
  }

  /// Checks a line of a namespace that is not restored: only its shape.
  static func checkSkippedLine(_ bytes: UnsafeBufferPointer<UInt8>, entry: String, number: Int) throws(BackupError) {
    _ = try parse(bytes, entry: entry, number: number)
  }

  /// A line's `entity` object and `createdAt`.
  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, entry: String, number: Int) throws(BackupError) -> (JSONObject, Double?) {
    let row: JSON
    do { row = try JSON.parse(bytes: bytes) } catch {
      throw BackupError(.invalidLine, entry: entry, line: number, "the line is not valid JSON (\(error)); the file may be truncated")
    }
    guard case let .object(members) = row else {
      throw BackupError(.invalidLine, entry: entry, line: number, "the line is not a JSON object")
    }
    guard case let .object(entity)? = members["entity"] else {
      throw BackupError(.invalidLine, entry: entry, line: number, "the line has no \"entity\" object")
    }
    switch members["createdAt"] {
    case nil, .null?: return (entity, nil)
    case let .number(n)?: return (entity, n)
    case let other?: throw BackupError(.invalidLine, entry: entry, line: number, "createdAt must be a number, not \(preview(other))")
    }
  }

  /// Why `value` does not fit `attr`'s checked data type, or `nil` (as the store checks it: `null`
  /// always fits; a date is a finite number or a string JavaScript's `Date` can parse).
  static func typeProblem(_ attr: Attr, _ value: JSON) -> String? {
    guard let type = attr.checkedDataType, !attr.accepts(value) else { return nil }
    return "\(attr.qualifiedName) must be a \(type), not \(preview(value))"
  }

  /// A value for a message, cut short.
  static func preview(_ value: JSON) -> String {
    let text = value.serialized()
    return text.count <= 80 ? text : String(text.prefix(77)) + "..."
  }
}
