public import Foundation
public import InstantCore
import OrderedCollections

/// Reads and checks a backup archive into a ``RestorePlan``.
///
/// Everything is checked before the plan is returned, so a caller that writes nothing until it has
/// the plan never restores half an app. It refuses, naming the entry and (in a `.jsonl`) the
/// 1-based line:
///
/// - a zip it cannot read, an entry whose size or CRC-32 is wrong, an encrypted entry, a method
///   other than stored or deflated;
/// - an entry name that could escape a directory (`..`, `.`, a leading `/`, a backslash…), a
///   directory or symlink entry, a duplicate name, a name that is none of `config.json`,
///   `entities/<namespace>.jsonl`, `files/<location-id>`, an `entities/` entry after a `files/` one;
/// - no `config.json`, or one that is not the first entry, not a JSON object, or without a `schema`;
/// - a line that is not a JSON object with an `entity` object (truncated, unparsable), a
///   `createdAt` that is not a number, an `entity.id` that is missing or not a UUID, an id twice in
///   one namespace, a key no attribute has (`Missing attr for <etype>.<key>`), a value of the wrong
///   type for its attribute, a unique value twice, a link to an id no restored namespace has;
/// - a `$files` row without `location-id` or without its `files/<location-id>` entry, a `files/`
///   entry no row names;
/// - a namespace whose line count differs from `config.json`'s `counts`.
///
/// Memory: lines are streamed one at a time; blobs are never read into memory (they are checked by
/// streaming them through CRC-32 when ``verifyBlobs`` is set, and extracted later on demand).
public struct BackupReader: Sendable {
  /// The app's system-catalog attrs (with their fixed ids). Schema entries and data of these
  /// attributes map onto them; namespaces that start with `$` and have none of them are skipped.
  public var systemAttrs: [Attr]
  /// Whether ``read(_:)`` streams every blob once to check its size and CRC-32 (default `true`).
  /// Without it a damaged blob is only found when it is extracted.
  public var verifyBlobs: Bool

  /// The largest `config.json` accepted.
  static let maxConfigBytes: UInt64 = 64 << 20
  /// The longest `.jsonl` line accepted (256 MiB; a line is held whole while it is parsed).
  var maxLineBytes = 256 << 20

  /// Makes a reader for an app whose system catalog is `systemAttrs`.
  public init(systemAttrs: [Attr], verifyBlobs: Bool = true) {
    self.systemAttrs = systemAttrs
    self.verifyBlobs = verifyBlobs
  }

  /// Reads and checks the backup at `archive`.
  public func read(_ archive: URL) throws(BackupError) -> RestorePlan {
    let zip = try ZipReader(url: archive)
    let layout = try Self.checkLayout(zip.entries)

    // config.json
    let config = try readConfig(zip, layout.config)
    guard let schemaValue = config["schema"], Self.truthy(schemaValue) else {
      throw BackupError(.malformedConfig, entry: BackupLayout.config, "expected an object with a schema key")
    }
    let schema = try SchemaReader(
      schema: schemaValue, systemAttrs: systemAttrs, rowNamespaces: layout.entities.map(\.etype),
      makeID: { UUID().uuidString.lowercased() })
    var rules: JSON?
    switch config["rules"] {
    case nil, .null?: rules = nil
    case let .object(o)?: rules = .object(o)
    default: throw BackupError(.malformedConfig, entry: BackupLayout.config, "\"rules\" must be an object or null")
    }
    var counts: [String: Int] = [:]
    switch config["counts"] {
    case nil, .null?: break
    case let .object(o)?:
      for (etype, n) in o {
        guard let n = n.intValue, n >= 0 else {
          throw BackupError(.malformedConfig, entry: BackupLayout.config, "counts[\"\(etype)\"] must be a whole number")
        }
        counts[etype] = n
      }
    default: throw BackupError(.malformedConfig, entry: BackupLayout.config, "\"counts\" must be an object")
    }

    // entities/*.jsonl
    var restore = EntityRestorer(attrs: systemAttrs + schema.userAttrs)
    var skipped: [String: Int] = [:]
    var entityCounts: [String: Int] = [:]
    for (etype, entry) in layout.entities {
      let modeled = schema.isModeled(etype)
      var splitter = LineSplitter(maxLineBytes: maxLineBytes)
      var lines = 0
      let handle = { (number: Int, bytes: UnsafeBufferPointer<UInt8>) throws(BackupError) in
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        lines += 1
        if modeled {
          try restore.line(bytes, etype: etype, entry: entry.name, number: number)
        } else {
          try EntityRestorer.checkSkippedLine(bytes, entry: entry.name, number: number)
        }
      }
      try zip.read(entry) { (chunk) throws(BackupError) in try splitter.feed(chunk, entry: entry.name, handle) }
      try splitter.finish(entry: entry.name, handle)
      if let expected = counts[etype], expected != lines {
        throw BackupError(
          .countMismatch, entry: entry.name,
          "has \(lines) entities but config.json counts \(expected) (the file is incomplete or does not belong to this backup)")
      }
      if modeled { entityCounts[etype] = lines } else { skipped[etype] = lines }
    }
    for (etype, expected) in counts where expected > 0 && entityCounts[etype] == nil && skipped[etype] == nil {
      throw BackupError(
        .countMismatch, entry: BackupLayout.config,
        "counts \(expected) entities in \(etype) but the archive has no \(BackupLayout.entitiesEntry(etype))")
    }
    try restore.checkLinks()

    // files/*
    var blobs: [BackupBlob] = []
    var used = Set<String>()
    for row in restore.fileRows {
      guard let entry = layout.files[row.locationID] else {
        throw BackupError(
          .missingBlob, entry: BackupLayout.entitiesEntry(BackupLayout.filesNamespace), line: row.line,
          "the $files entity \(row.fileID) has location-id \"\(row.locationID)\" but the archive has no \(BackupLayout.fileEntry(row.locationID))")
      }
      used.insert(row.locationID)
      blobs.append(BackupBlob(locationID: row.locationID, fileID: row.fileID, archive: archive, entry: entry))
    }
    for entry in layout.fileOrder where !used.contains(entry.locationID) {
      throw BackupError(.extraBlob, entry: entry.entry.name, "no $files entity has location-id \"\(entry.locationID)\"")
    }
    if verifyBlobs {
      for blob in blobs { try zip.read(blob.entry) { (_) throws(BackupError) in } }
    }

    return RestorePlan(
      userAttrs: schema.userAttrs, systemAttrs: systemAttrs, triples: restore.triples, rules: rules,
      title: config["title"]?.stringValue, config: config, entityCounts: entityCounts, skipped: skipped, blobs: blobs)
  }

  // MARK: Layout

  struct Layout {
    var config: ZipEntry
    var entities: [(etype: String, entry: ZipEntry)] = []
    var files: [String: ZipEntry] = [:]
    var fileOrder: [(locationID: String, entry: ZipEntry)] = []
  }

  /// Checks entry names and order: `config.json` first, then `entities/…`, then `files/…`.
  static func checkLayout(_ entries: [ZipEntry]) throws(BackupError) -> Layout {
    guard let first = entries.first, first.name == BackupLayout.config else {
      if let index = entries.firstIndex(where: { $0.name == BackupLayout.config }) {
        throw BackupError(
          .configNotFirst, entry: BackupLayout.config,
          "config.json must be the first entry of the archive, but it is entry \(index + 1) (the first is \"\(entries[0].name)\")")
      }
      throw BackupError(.missingConfig, entry: BackupLayout.config, "the archive has no config.json, so it is not a backup")
    }
    var layout = Layout(config: first)
    var names: Set<String> = [first.name]
    var inFiles = false
    for entry in entries.dropFirst() {
      if let reason = BackupLayout.unsafeNameReason(entry.name) {
        throw BackupError(.unsafeEntryName, entry: entry.name, "\(reason) (path traversal), so the archive is refused")
      }
      guard names.insert(entry.name).inserted else {
        throw BackupError(.duplicateEntry, entry: entry.name, "the archive has two entries with this name")
      }
      if entry.isDirectory {
        throw BackupError(.unknownEntry, entry: entry.name, "directory entries are not part of a backup")
      }
      if entry.isSymlink {
        throw BackupError(.unknownEntry, entry: entry.name, "symbolic links are not part of a backup")
      }
      switch BackupLayout.role(of: entry.name) {
      case .config:
        throw BackupError(.duplicateEntry, entry: entry.name, "the archive has two entries with this name")
      case let .entities(etype):
        if inFiles {
          throw BackupError(.entryOrder, entry: entry.name, "entities/ entries must come before every files/ entry")
        }
        layout.entities.append((etype, entry))
      case let .file(locationID):
        inFiles = true
        layout.files[locationID] = entry
        layout.fileOrder.append((locationID, entry))
      case .unknown:
        throw BackupError(
          .unknownEntry, entry: entry.name,
          "unexpected entry: a backup holds only config.json, entities/<namespace>.jsonl and files/<location-id>")
      }
    }
    return layout
  }

  private func readConfig(_ zip: ZipReader, _ entry: ZipEntry) throws(BackupError) -> JSONObject {
    guard entry.size <= Self.maxConfigBytes else {
      throw BackupError(.malformedConfig, entry: entry.name, "config.json is larger than \(Self.maxConfigBytes >> 20) MiB")
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(entry.size))
    try zip.read(entry) { (chunk) throws(BackupError) in bytes.append(contentsOf: chunk) }
    let parsed: JSON
    do { parsed = try JSON.parse(bytes: bytes) } catch {
      throw BackupError(.malformedConfig, entry: entry.name, "config.json is not valid JSON (\(error))")
    }
    guard case let .object(config) = parsed else {
      throw BackupError(.malformedConfig, entry: entry.name, "expected an object with a schema key")
    }
    return config
  }

  private static func truthy(_ value: JSON) -> Bool {
    switch value {
    case .null, .bool(false): false
    default: true
    }
  }
}
