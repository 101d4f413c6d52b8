public import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
public import InstantCore
import OrderedCollections

/// Writes an app as a backup archive in the layout of InstantDB's backups, so that the
/// reference's restore (and ``BackupReader``) can read it:
///
/// 1. `config.json`: one compact line, no trailing newline, with `counts`, `tripleCount`,
///    `schema` (entities and links), `rules`, `webhooks`, `emailTemplates`,
///    `authorizedRedirectOrigins`, `title`, `appId`, `backupAt`, `isn` and `description`;
/// 2. `entities/<namespace>.jsonl` for every namespace with at least one entity, in byte order of
///    the entry names: one line per entity in id order: `{"entity":{…},"createdAt":<ms>}`;
/// 3. `files/<location-id>` for every `$files` row, in row order, with the blob's bytes.
///
/// Every entry is deflated. Lines are streamed to temporary files as they are made, then into the
/// archive, which is written next to `destination` and moved into place when complete.
public struct BackupWriter {
  /// Every attr of the app: user attrs and system-catalog attrs (`"catalog": "system"`).
  public var attrs: [Attr]
  /// Every triple of the app. `createdAt` is in milliseconds.
  public var triples: [Triple]
  /// The permission rules, or `nil` for none.
  public var rules: JSON?
  /// The app's title.
  public var title: String
  /// The app's id (`config.json` `appId`).
  public var appID: String
  /// When the backup was taken (`config.json` `backupAt`, and every entry's modification time).
  public var backupAt: Date
  /// `config.json` `description`. The reference writes `"On-demand backup"` for backups a person
  /// asks for and `"Automated Daily Snapshot"` for nightly ones.
  public var description: String
  /// `config.json` `emailTemplates`: the app's emails as the reference lists them
  /// (`{type, subject, body, name, email}`, `type` `"magic-code"`); none by default.
  public var emailTemplates: [JSON] = []
  /// `config.json` `authorizedRedirectOrigins`: where the app's OAuth sign-in may return, as the
  /// reference lists them (`{service, params}`); none by default.
  public var authorizedRedirectOrigins: [JSON] = []
  /// The file holding the blob of a `$files` row, by its `location-id`; `nil` when there is none
  /// (which refuses the backup: a restore needs every blob).
  public var blobURL: (_ locationID: String) throws -> URL?

  /// Describes a backup to write.
  public init(
    attrs: [Attr], triples: [Triple], rules: JSON?, title: String, appID: String, backupAt: Date,
    description: String = "On-demand backup", blobURL: @escaping (_ locationID: String) throws -> URL?
  ) {
    self.attrs = attrs
    self.triples = triples
    self.rules = rules
    self.title = title
    self.appID = appID
    self.backupAt = backupAt
    self.description = description
    self.blobURL = blobURL
  }

  /// Writes the archive to `destination`, replacing any file there. Nothing is left at
  /// `destination` (or in temporary files) when it throws.
  @discardableResult
  public func write(to destination: URL) throws(BackupError) -> BackupSummary {
    var attrsByID: [String: Attr] = [:]
    var idents: [String: String] = [:]
    for attr in attrs {
      attrsByID[attr.id] = attr
      let key = attr.forwardIdentity.etype + "\u{0}" + attr.forwardIdentity.label
      if let other = idents[key], other != attr.id {
        throw BackupError(.invalidInput, "two attrs are named \(attr.qualifiedName) (\(other) and \(attr.id))")
      }
      idents[key] = attr.id
    }
    let lines = try EntityLines(triples: triples, attrs: attrsByID)
    let schema = try SchemaWriter.schema(attrs)

    let fileManager = FileManager.default
    let work = fileManager.temporaryDirectory.appendingPathComponent("instant-backup-\(UUID().uuidString)", isDirectory: true)
    do { try fileManager.createDirectory(at: work, withIntermediateDirectories: true) } catch {
      throw BackupError(.io, "cannot create \(work.path): \(error)")
    }
    defer { try? fileManager.removeItem(at: work) }

    // entities/*.jsonl, each streamed to a temporary file.
    var summary = BackupSummary()
    var entityFiles: [(name: String, url: URL)] = []
    var locationIDs: [(id: String, fileID: String)] = []
    let etypes = lines.namespaces.keys.sorted {
      BackupLayout.entitiesEntry($0).utf8Less(BackupLayout.entitiesEntry($1))
    }
    for (index, etype) in etypes.enumerated() {
      let name = BackupLayout.entitiesEntry(etype)
      guard BackupLayout.unsafeNameReason(name) == nil, BackupLayout.role(of: name) == .entities(etype: etype) else {
        throw BackupError(.invalidInput, "the namespace name \"\(etype)\" cannot name an archive entry")
      }
      let file = try BufferedFile(url: work.appendingPathComponent("entities-\(index).jsonl"))
      var count = 0
      for entity in lines.entityIDs(etype) {
        let line = try lines.line(etype: etype, entity: entity)
        try file.write(line.text)
        count += 1
        summary.tripleCount += line.triples
        summary.droppedLinks += line.droppedLinks
        if etype == BackupLayout.filesNamespace {
          guard case let .string(locationID)? = line.locationID, !locationID.isEmpty else {
            throw BackupError(.invalidInput, "the $files entity \(entity) has no location-id, so its blob cannot be backed up")
          }
          locationIDs.append((locationID, entity))
        }
      }
      try file.close()
      summary.counts[etype] = count
      entityFiles.append((name, file.url))
    }

    // files/*: check every blob is there before writing anything.
    var blobs: [(name: String, url: URL)] = []
    var seen: [String: String] = [:]
    for (locationID, fileID) in locationIDs {
      guard BackupLayout.isSafeLocationID(locationID) else {
        throw BackupError(.invalidInput, "the $files entity \(fileID) has location-id \"\(locationID)\", which cannot name an archive entry")
      }
      if let other = seen[locationID] {
        throw BackupError(.invalidInput, "the $files entities \(other) and \(fileID) have the same location-id \(locationID)")
      }
      seen[locationID] = fileID
      let url: URL?
      do { url = try blobURL(locationID) } catch {
        throw BackupError(.io, "cannot read the blob of $files entity \(fileID) (location-id \(locationID)): \(error)")
      }
      guard let url else {
        throw BackupError(.invalidInput, "the blob of $files entity \(fileID) (location-id \(locationID)) is missing")
      }
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
        throw BackupError(
          .invalidInput, "the blob of $files entity \(fileID) (location-id \(locationID)) is not a file at \(url.path)")
      }
      blobs.append((BackupLayout.fileEntry(locationID), url))
    }

    // config.json
    var counts = JSONObject()
    for etype in summary.counts.keys.sorted(by: { $0.utf16Less($1) }) { counts[etype] = .number(Double(summary.counts[etype] ?? 0)) }
    let config: JSON = [
      "counts": .object(counts),
      "tripleCount": .number(Double(summary.tripleCount)),
      "schema": schema,
      "rules": rules ?? .null,
      "webhooks": [],
      "emailTemplates": .array(emailTemplates),
      "authorizedRedirectOrigins": .array(authorizedRedirectOrigins),
      "title": .string(title),
      "appId": .string(appID),
      "backupAt": .string(ISOInstant.string(backupAt)),
      "isn": nil,
      "description": .string(description),
    ]
    let configFile = try BufferedFile(url: work.appendingPathComponent(BackupLayout.config))
    try configFile.write(config.serialized())
    try configFile.close()

    // The archive, next to its destination, then moved into place.
    let partial = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
    var moved = false
    defer { if !moved { try? fileManager.removeItem(at: partial) } }
    let zip = try ZipWriter(url: partial, modified: backupAt)
    summary.entries = [BackupLayout.config] + entityFiles.map(\.name) + blobs.map(\.name)
    try zip.addFile(name: BackupLayout.config, source: configFile.url)
    for (name, url) in entityFiles { try zip.addFile(name: name, source: url) }
    for (name, url) in blobs { try zip.addFile(name: name, source: url) }
    try zip.finish()
    // rename(2) replaces an existing file atomically (FileManager.replaceItemAt fails on Linux).
    guard rename(partial.path, destination.path) == 0 else {
      throw BackupError(.io, "cannot move the archive to \(destination.path): \(String(cString: strerror(errno)))")
    }
    moved = true
    return summary
  }
}

/// What ``BackupWriter/write(to:)`` wrote.
public struct BackupSummary: Sendable, Equatable {
  /// Entities per namespace (`config.json` `counts`).
  public var counts: [String: Int] = [:]
  /// Triples written (`config.json` `tripleCount`): every element of a has-many array counts,
  /// and so does each `id`.
  public var tripleCount = 0
  /// The archive's entries, in order.
  public var entries: [String] = []
  /// Link values left out because their target id is no entity of the app (see
  /// `EntityLines.line(etype:entity:)`).
  public var droppedLinks = 0

  /// An empty summary.
  public init() {}
}
