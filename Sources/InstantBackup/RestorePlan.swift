public import Foundation
public import InstantCore
public import OrderedCollections

/// Everything a server needs to make an app whole from a backup, checked: nothing in it refers to
/// anything missing, so a caller can write all of it or (on a thrown ``BackupError``) none of it.
///
/// Made by ``BackupReader/read(_:)``.
public struct RestorePlan: Sendable {
  /// The attrs to create, with fresh random attr ids and ident ids (the reference's restore does
  /// not keep user attr ids): one `id` attr per user namespace, then the attributes, then the links.
  public var userAttrs: [Attr]
  /// The system attrs the reader was given, unchanged. Triples of system namespaces use their
  /// fixed ids.
  public var systemAttrs: [Attr]
  /// Every triple of the restored namespaces, in archive order (namespace files in entry order,
  /// lines in order, keys in line order, has-many values in array order). Each carries its line's
  /// `createdAt` (milliseconds), or `nil` when the line has none. Entity ids and link values are
  /// lower-cased UUIDs.
  public var triples: [Triple]
  /// The permission rules (`config.json` `rules`), or `nil` when the backup has none.
  public var rules: JSON?
  /// The source app's title (`config.json` `title`); the reference names the restored app
  /// `"<title> (Restored)"` unless told otherwise.
  public var title: String?
  /// The whole `config.json`, for what this library does not interpret: `emailTemplates`,
  /// `authorizedRedirectOrigins`, `webhooks`, `appId`, `backupAt`, `isn`, `description`.
  public var config: JSONObject
  /// How many entities each restored namespace has (one per line of its `.jsonl`).
  public var entityCounts: [String: Int]
  /// Namespaces in the backup that are not restored because the system catalog does not model
  /// them (`$userRefreshTokens`, `$magicCodes`, `$oauth*`, `$streams`…), with their entity counts.
  public var skipped: [String: Int]
  /// The `$files` blobs, in the order of the `$files` rows.
  public var blobs: [BackupBlob]

  /// ``systemAttrs`` followed by ``userAttrs``: every attr the triples use.
  public var attrs: [Attr] { systemAttrs + userAttrs }

  /// Extracts every blob into `directory` (created if needed), as `directory/<location-id>`.
  /// Each blob's size and CRC-32 are checked as it is written; a file that fails is removed.
  public func extractBlobs(into directory: URL) throws(BackupError) {
    do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
      throw BackupError(.io, "cannot create \(directory.path): \(error)")
    }
    for blob in blobs {
      try blob.extract(to: directory.appendingPathComponent(blob.locationID, isDirectory: false))
    }
  }
}

/// One `$files` blob of a backup: the entry `files/<location-id>`, read from the archive on demand.
public struct BackupBlob: Sendable, Equatable {
  /// The `$files` row's `location-id`, which names the entry.
  public let locationID: String
  /// The entry's name, `files/<location-id>`.
  public var entryName: String { entry.name }
  /// The blob's size in bytes.
  public var size: UInt64 { entry.size }
  /// The `$files` entity whose row names this blob.
  public let fileID: String
  /// The archive the blob is in.
  public let archive: URL
  let entry: ZipEntry

  init(locationID: String, fileID: String, archive: URL, entry: ZipEntry) {
    self.locationID = locationID
    self.fileID = fileID
    self.archive = archive
    self.entry = entry
  }

  /// Streams the blob to a new file at `destination` (replacing one that is there), checking its
  /// size and CRC-32; on failure the partial file is removed.
  public func extract(to destination: URL) throws(BackupError) {
    guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
      throw BackupError(.io, entry: entry.name, "cannot create \(destination.path)")
    }
    let out: FileHandle
    do { out = try FileHandle(forWritingTo: destination) } catch {
      throw BackupError(.io, entry: entry.name, "cannot open \(destination.path): \(error)")
    }
    do throws(BackupError) {
      try ZipReader.read(entry, from: archive) { (chunk) throws(BackupError) in
        do { try out.write(contentsOf: chunk) } catch {
          throw BackupError(.io, entry: entry.name, "cannot write \(destination.path): \(error)")
        }
      }
      do { try out.close() } catch { throw BackupError(.io, entry: entry.name, "cannot write \(destination.path): \(error)") }
    } catch {
      try? out.close()
      try? FileManager.default.removeItem(at: destination)
      throw error
    }
  }

  /// The blob's bytes, read into memory (for small blobs; prefer ``extract(to:)``).
  public func data() throws(BackupError) -> Data {
    var data = Data()
    try ZipReader.read(entry, from: archive) { (chunk) throws(BackupError) in data.append(chunk) }
    return data
  }
}
