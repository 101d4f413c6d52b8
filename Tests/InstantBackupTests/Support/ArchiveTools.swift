import Foundation
import InstantBackup
import InstantCore
import OrderedCollections
import Testing
import ZIPFoundation

/// A temporary directory, removed when the value goes away.
final class TempDir {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("InstantBackupTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Writing and taking apart archives for the tests.
enum Archives {
  /// Writes the sample app (blob from a file in `dir`) and returns the archive's URL.
  static func writeSample(
    in dir: TempDir, name: String = "backup.zip", attrs: [Attr] = SampleApp.attrs, triples: [Triple] = SampleApp.triples
  ) throws -> URL {
    let blobs = dir.file("blobs")
    try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true)
    try SampleApp.blob.write(to: blobs.appendingPathComponent(SampleApp.locationID))
    let url = dir.file(name)
    try BackupWriter(
      attrs: attrs, triples: triples, rules: SampleApp.rules, title: "demo", appID: SampleApp.appID,
      backupAt: SampleApp.backupAt,
      blobURL: { id in
        let url = blobs.appendingPathComponent(id)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
      }
    ).write(to: url)
    return url
  }

  /// The entries of an archive, in central-directory order, read with ZIPFoundation (a reader
  /// independent of the one under test).
  static func entries(_ url: URL) throws -> [(name: String, data: Data)] {
    let archive = try Archive(url: url, accessMode: .read)
    var out: [(String, Data)] = []
    for entry in archive {
      var data = Data()
      let crc = try archive.extract(entry, consumer: { data.append($0) })
      #expect(crc == entry.checksum, "CRC of \(entry.path)")
      out.append((entry.path, data))
    }
    return out
  }

  /// The text of one entry.
  static func text(_ url: URL, _ name: String) throws -> String {
    let data = try #require(try entries(url).first { $0.name == name }?.data, "no entry \(name)")
    return String(decoding: data, as: UTF8.self)
  }

  /// Rewrites the sample archive's entries through `edit` and writes the result with ``RawZip``.
  static func sampleEdited(in dir: TempDir, _ edit: (inout [RawZip.Item]) throws -> Void) throws -> URL {
    let source = try writeSample(in: dir, name: "source.zip")
    var items = try entries(source).map { RawZip.Item(name: $0.name, data: $0.data) }
    try edit(&items)
    let url = dir.file("edited-\(UUID().uuidString).zip")
    try RawZip.build(items).write(to: url)
    return url
  }

  /// Reads `url` with the test catalog and returns the refusal.
  static func refusal(_ url: URL) -> BackupError? {
    do {
      _ = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
      return nil
    } catch {
      return error
    }
  }
}

extension [RawZip.Item] {
  /// The index of the entry named `name`.
  func index(_ name: String) throws -> Int { try #require(firstIndex { $0.name == name }, "no entry \(name)") }

  /// Edits the lines of a `.jsonl` entry (without their `\n`s; each line written back with one).
  mutating func editLines(_ name: String, _ edit: (inout [String]) -> Void) throws {
    let i = try index(name)
    var lines = String(decoding: self[i].data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    edit(&lines)
    self[i].data = Data(lines.map { $0 + "\n" }.joined().utf8)
  }

  /// Edits `config.json` as a JSON object.
  mutating func editConfig(_ edit: (inout JSONObject) -> Void) throws {
    let i = try index("config.json")
    var config = try #require(try JSON.parse(bytes: self[i].data).objectValue)
    edit(&config)
    self[i].data = Data(JSON.object(config).serialized().utf8)
  }
}

/// A zip builder that can write what the reference's client writes (zip64 fields and data
/// descriptors on every entry) and what no writer should (any name, any order, a wrong CRC).
enum RawZip {
  struct Item {
    var name: String
    var data: Data
    /// 8 (deflate) or 0 (stored).
    var method: UInt16 = 8
    /// Sizes and CRC after the data, in a data descriptor (flag bit 3), as zip.js writes them.
    var dataDescriptor = false
    /// zip64 extra fields on the entry (and zip64 end records), as zip.js writes with `zip64: true`.
    var zip64 = false
    /// A CRC-32 to write instead of the right one.
    var badCRC = false
  }

  static func deflate(_ data: Data) throws -> Data {
    var out = Data()
    _ = try Data.compress(
      size: Int64(data.count), bufferSize: 16 * 1024,
      provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) },
      consumer: { out.append($0) })
    return out
  }

  static func build(_ items: [Item]) throws -> Data {
    var out = Data()
    var central = Data()
    var any64 = false
    for item in items {
      let name = Data(item.name.utf8)
      let body = item.method == 8 ? try deflate(item.data) : item.data
      let crc = item.badCRC ? item.data.crc32(checksum: 0) ^ 0xDEAD_BEEF : item.data.crc32(checksum: 0)
      let offset = UInt64(out.count)
      any64 = any64 || item.zip64
      let flags: UInt16 = 0x0800 | (item.dataDescriptor ? 0x0008 : 0)
      // Local header
      var local = Data()
      local.put32(0x0403_4B50)
      local.put16(item.zip64 ? 45 : 20)
      local.put16(flags)
      local.put16(item.method)
      local.put16(0)
      local.put16(0x21)
      local.put32(item.dataDescriptor ? 0 : crc)
      if item.zip64 {
        local.put32(0xFFFF_FFFF)
        local.put32(0xFFFF_FFFF)
      } else {
        local.put32(item.dataDescriptor ? 0 : UInt32(body.count))
        local.put32(item.dataDescriptor ? 0 : UInt32(item.data.count))
      }
      local.put16(UInt16(name.count))
      local.put16(item.zip64 ? 20 : 0)
      local.append(name)
      if item.zip64 {
        local.put16(1)
        local.put16(16)
        local.put64(item.dataDescriptor ? 0 : UInt64(item.data.count))
        local.put64(item.dataDescriptor ? 0 : UInt64(body.count))
      }
      out.append(local)
      out.append(body)
      if item.dataDescriptor {
        out.put32(0x0807_4B50)
        out.put32(crc)
        if item.zip64 {
          out.put64(UInt64(body.count))
          out.put64(UInt64(item.data.count))
        } else {
          out.put32(UInt32(body.count))
          out.put32(UInt32(item.data.count))
        }
      }
      // Central record
      var record = Data()
      record.put32(0x0201_4B50)
      record.put16(3 << 8 | 45)
      record.put16(item.zip64 ? 45 : 20)
      record.put16(flags)
      record.put16(item.method)
      record.put16(0)
      record.put16(0x21)
      record.put32(crc)
      record.put32(item.zip64 ? 0xFFFF_FFFF : UInt32(body.count))
      record.put32(item.zip64 ? 0xFFFF_FFFF : UInt32(item.data.count))
      record.put16(UInt16(name.count))
      record.put16(item.zip64 ? 28 : 0)
      record.put16(0)
      record.put16(0)
      record.put16(0)
      record.put32(item.name.hasSuffix("/") ? 0o040755 << 16 : 0o100644 << 16)
      record.put32(item.zip64 ? 0xFFFF_FFFF : UInt32(offset))
      record.append(name)
      if item.zip64 {
        record.put16(1)
        record.put16(24)
        record.put64(UInt64(item.data.count))
        record.put64(UInt64(body.count))
        record.put64(offset)
      }
      central.append(record)
    }
    let centralOffset = UInt64(out.count)
    out.append(central)
    if any64 {
      let recordOffset = UInt64(out.count)
      out.put32(0x0606_4B50)
      out.put64(44)
      out.put16(3 << 8 | 45)
      out.put16(45)
      out.put32(0)
      out.put32(0)
      out.put64(UInt64(items.count))
      out.put64(UInt64(items.count))
      out.put64(UInt64(central.count))
      out.put64(centralOffset)
      out.put32(0x0706_4B50)
      out.put32(0)
      out.put64(recordOffset)
      out.put32(1)
    }
    out.put32(0x0605_4B50)
    // zip.js (Instant's backups) fills every field of a zip64 archive's end record with ones,
    // its disk numbers included.
    out.put16(any64 ? 0xFFFF : 0)
    out.put16(any64 ? 0xFFFF : 0)
    out.put16(any64 ? 0xFFFF : UInt16(items.count))
    out.put16(any64 ? 0xFFFF : UInt16(items.count))
    out.put32(any64 ? 0xFFFF_FFFF : UInt32(central.count))
    out.put32(any64 ? 0xFFFF_FFFF : UInt32(centralOffset))
    out.put16(0)
    return out
  }
}

extension Data {
  mutating func put16(_ v: UInt16) { append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8)]) }
  mutating func put32(_ v: UInt32) { for i in 0..<4 { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
  mutating func put64(_ v: UInt64) { for i in 0..<8 { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
}
