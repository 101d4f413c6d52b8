import Foundation
import ZIPFoundation

/// One entry of a zip's central directory, with where its data starts.
struct ZipEntry: Sendable, Equatable {
  var name: String
  /// 0 (stored) or 8 (deflated); others are refused when read.
  var method: UInt16
  var flags: UInt16
  var crc: UInt32
  var compressedSize: UInt64
  var size: UInt64
  var headerOffset: UInt64
  /// Where the entry's data starts (after its local header); set by ``ZipReader`` once checked.
  var dataOffset: UInt64 = 0
  var externalAttributes: UInt32
  var madeBy: UInt16

  /// A directory entry (its name ends in `/`).
  var isDirectory: Bool { name.hasSuffix("/") }
  /// A symbolic link, by its Unix mode.
  var isSymlink: Bool { madeBy >> 8 == 3 && (externalAttributes >> 16) & 0o170000 == 0o120000 }
  /// Encrypted (flag bit 0).
  var isEncrypted: Bool { flags & 1 != 0 }
}

/// Reads a zip's central directory and streams entries out of it, checking each entry's size and
/// CRC-32 as it goes.
///
/// Reads plain and zip64 archives, with or without data descriptors, stored or deflated: what the
/// reference's client (zip.js with `zip64: true`) writes and what ``ZipWriter`` writes. It does not
/// trust ZIPFoundation's `Archive` to read: that one stops listing entries silently at a bad
/// record, and its inflate loop can spin at the end of the file on a truncated entry. ZIPFoundation
/// only inflates here, fed exactly the entry's compressed bytes.
struct ZipReader: Sendable {
  let url: URL
  let entries: [ZipEntry]

  private static let chunkSize = 64 * 1024

  /// Reads the central directory of the zip at `url`. Errors have kind `.notAZip` (or `.io`).
  init(url: URL) throws(BackupError) {
    self.url = url
    let handle = try Self.open(url)
    defer { try? handle.close() }
    let fileSize: UInt64
    do { fileSize = try handle.seekToEnd() } catch { throw BackupError(.io, "cannot read \(url.path): \(error)") }

    // End of central directory: the last signature whose comment reaches the end of the file.
    let tailLength = min(fileSize, 22 + 0xFFFF)
    let tail = try Self.read(handle, at: fileSize - tailLength, count: Int(tailLength))
    var eocdAt: Int?
    var i = tail.count - 22
    while i >= 0 {
      if tail.u32(i) == 0x0605_4B50, i + 22 + Int(tail.u16(i + 20)) <= tail.count {
        eocdAt = i
        break
      }
      i -= 1
    }
    guard let eocd = eocdAt else { throw BackupError(.notAZip, "not a zip archive (no end of central directory record)") }
    let eocdOffset = fileSize - tailLength + UInt64(eocd)
    var total = UInt64(tail.u16(eocd + 10))
    var centralSize = UInt64(tail.u32(eocd + 12))
    var centralOffset = UInt64(tail.u32(eocd + 16))
    var centralEnd = eocdOffset

    // zip64: a locator just before the end record points at the zip64 end record, whose fields
    // then count, not the end record's (which zip64 writers may fill with 0xFFFF, disk numbers
    // included: Instant's own backups do).
    if eocdOffset >= 20, try Self.read(handle, at: eocdOffset - 20, count: 4).u32(0) == 0x0706_4B50 {
      let locator = try Self.read(handle, at: eocdOffset - 20, count: 20)
      guard locator.u32(4) == 0, locator.u32(16) <= 1 else { throw BackupError(.notAZip, "multi-disk zip archives are not supported") }
      let recordOffset = locator.u64(8)
      guard recordOffset + 56 <= eocdOffset - 20 else { throw BackupError(.notAZip, "bad zip64 end of central directory locator") }
      let record = try Self.read(handle, at: recordOffset, count: 56)
      guard record.u32(0) == 0x0606_4B50 else { throw BackupError(.notAZip, "bad zip64 end of central directory record") }
      guard record.u32(16) == 0, record.u32(20) == 0 else { throw BackupError(.notAZip, "multi-disk zip archives are not supported") }
      total = record.u64(32)
      centralSize = record.u64(40)
      centralOffset = record.u64(48)
      centralEnd = recordOffset
    } else if tail.u16(eocd + 4) != 0 || tail.u16(eocd + 6) != 0 {
      throw BackupError(.notAZip, "multi-disk zip archives are not supported")
    }
    guard centralOffset <= centralEnd, centralSize <= centralEnd - centralOffset else {
      throw BackupError(.notAZip, "the central directory lies outside the file")
    }
    guard centralSize <= 1 << 30 else { throw BackupError(.notAZip, "the central directory is larger than 1 GiB") }
    let directory = try Self.read(handle, at: centralOffset, count: Int(centralSize))

    var entries: [ZipEntry] = []
    var at = 0
    while UInt64(entries.count) < total {
      guard at + 46 <= directory.count, directory.u32(at) == 0x0201_4B50 else {
        throw BackupError(.notAZip, "the central directory is truncated after \(entries.count) of \(total) entries")
      }
      let nameLength = Int(directory.u16(at + 28))
      let extraLength = Int(directory.u16(at + 30))
      let commentLength = Int(directory.u16(at + 32))
      let end = at + 46 + nameLength + extraLength + commentLength
      guard end <= directory.count else {
        throw BackupError(.notAZip, "the central directory is truncated after \(entries.count) of \(total) entries")
      }
      let nameBytes = directory.subdata(in: (at + 46)..<(at + 46 + nameLength))
      guard let name = String(data: nameBytes, encoding: .utf8) else {
        throw BackupError(.unsafeEntryName, "entry \(entries.count + 1) has a name that is not UTF-8")
      }
      var entry = ZipEntry(
        name: name, method: directory.u16(at + 10), flags: directory.u16(at + 8), crc: directory.u32(at + 16),
        compressedSize: UInt64(directory.u32(at + 20)), size: UInt64(directory.u32(at + 24)),
        headerOffset: UInt64(directory.u32(at + 42)), externalAttributes: directory.u32(at + 38),
        madeBy: directory.u16(at + 4))
      if entry.size == 0xFFFF_FFFF || entry.compressedSize == 0xFFFF_FFFF || entry.headerOffset == 0xFFFF_FFFF {
        try Self.applyZip64(&entry, extra: directory.subdata(in: (at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)))
      }
      entries.append(entry)
      at = end
    }
    // The data of every entry must lie before the central directory.
    for index in entries.indices {
      let entry = entries[index]
      guard entry.headerOffset + 30 <= centralOffset else {
        throw BackupError(.notAZip, entry: entry.name, "the entry's local header lies outside the file")
      }
      let header = try Self.read(handle, at: entry.headerOffset, count: 30)
      guard header.u32(0) == 0x0403_4B50 else {
        throw BackupError(.notAZip, entry: entry.name, "the entry's local header is missing")
      }
      let localName = try Self.read(handle, at: entry.headerOffset + 30, count: Int(header.u16(26)))
      guard localName == Data(entry.name.utf8) else {
        throw BackupError(.notAZip, entry: entry.name, "the local header names a different entry")
      }
      let dataOffset = entry.headerOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
      guard dataOffset <= centralOffset, entry.compressedSize <= centralOffset - dataOffset else {
        throw BackupError(.notAZip, entry: entry.name, "the entry's data runs past the end of the file")
      }
      entries[index].dataOffset = dataOffset
    }
    self.entries = entries
  }

  private static func applyZip64(_ entry: inout ZipEntry, extra: Data) throws(BackupError) {
    var at = 0
    while at + 4 <= extra.count {
      let id = extra.u16(at)
      let length = Int(extra.u16(at + 2))
      guard at + 4 + length <= extra.count else { break }
      if id == 0x0001 {
        var field = at + 4
        func next() throws(BackupError) -> UInt64 {
          guard field + 8 <= at + 4 + length else {
            throw BackupError(.notAZip, entry: entry.name, "the entry's zip64 extra field is too short")
          }
          defer { field += 8 }
          return extra.u64(field)
        }
        if entry.size == 0xFFFF_FFFF { entry.size = try next() }
        if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = try next() }
        if entry.headerOffset == 0xFFFF_FFFF { entry.headerOffset = try next() }
        return
      }
      at += 4 + length
    }
    throw BackupError(.notAZip, entry: entry.name, "the entry needs a zip64 extra field and has none")
  }

  /// Streams the uncompressed bytes of `entry` to `consume`, in chunks, then checks that there
  /// were exactly `entry.size` bytes with the entry's CRC-32. Errors from `consume` pass through.
  func read(_ entry: ZipEntry, _ consume: (Data) throws(BackupError) -> Void) throws(BackupError) {
    try Self.read(entry, from: url, consume)
  }

  /// ``read(_:_:)`` given only the archive's location (for blobs extracted later).
  static func read(_ entry: ZipEntry, from url: URL, _ consume: (Data) throws(BackupError) -> Void) throws(BackupError) {
    guard !entry.isEncrypted else { throw BackupError(.corruptEntry, entry: entry.name, "encrypted entries are not supported") }
    guard entry.method == 0 || entry.method == 8 else {
      throw BackupError(.corruptEntry, entry: entry.name, "compression method \(entry.method) is not supported (only stored and deflated)")
    }
    let handle = try open(url)
    defer { try? handle.close() }
    do { try handle.seek(toOffset: entry.dataOffset) } catch { throw BackupError(.io, entry: entry.name, "cannot read: \(error)") }

    var produced: UInt64 = 0
    var crc: UInt32 = 0
    var remaining = entry.compressedSize
    func emit(_ chunk: Data) throws(BackupError) {
      guard !chunk.isEmpty else { return }
      produced += UInt64(chunk.count)
      guard produced <= entry.size else {
        throw BackupError(.corruptEntry, entry: entry.name, "the entry holds more than the \(entry.size) bytes its header declares")
      }
      crc = chunk.crc32(checksum: crc)
      try consume(chunk)
    }
    if entry.method == 0 {
      guard entry.compressedSize == entry.size else {
        throw BackupError(.corruptEntry, entry: entry.name, "a stored entry's sizes disagree")
      }
      while remaining > 0 {
        let wanted = Int(min(remaining, UInt64(chunkSize)))
        let chunk: Data
        do { chunk = try handle.read(upToCount: wanted) ?? Data() } catch {
          throw BackupError(.io, entry: entry.name, "cannot read: \(error)")
        }
        guard chunk.count == wanted else { throw BackupError(.corruptEntry, entry: entry.name, "the entry is truncated") }
        remaining -= UInt64(wanted)
        try emit(chunk)
      }
    } else {
      var failure: BackupError?
      do {
        _ = try Data.decompress(
          size: Int64(entry.compressedSize), bufferSize: chunkSize, skipCRC32: true,
          provider: { _, wanted in
            // ZIPFoundation's inflate tells zlib the chunk is `wanted` bytes long whatever its
            // real length, so always hand it exactly that many (zero-padded past the entry's end),
            // and stop it once the entry's bytes are used up.
            guard remaining > 0 else {
              throw BackupError(.corruptEntry, entry: entry.name, "the deflated data ends before the stream does (truncated entry)")
            }
            let take = Int(min(remaining, UInt64(wanted)))
            var chunk = try handle.read(upToCount: take) ?? Data()
            guard chunk.count == take else { throw BackupError(.corruptEntry, entry: entry.name, "the entry is truncated") }
            remaining -= UInt64(take)
            if chunk.count < wanted { chunk.append(Data(count: wanted - chunk.count)) }
            return chunk
          },
          consumer: { chunk in
            do throws(BackupError) { try emit(chunk) } catch {
              failure = error
              throw error
            }
          })
      } catch {
        if let failure { throw failure }
        if let error = error as? BackupError { throw error }
        throw BackupError(.corruptEntry, entry: entry.name, "the deflated data is corrupt")
      }
    }
    guard produced == entry.size else {
      throw BackupError(.corruptEntry, entry: entry.name, "the entry holds \(produced) bytes but its header declares \(entry.size)")
    }
    guard crc == entry.crc else {
      throw BackupError(.corruptEntry, entry: entry.name, "the entry's CRC-32 does not match its data")
    }
  }

  private static func open(_ url: URL) throws(BackupError) -> FileHandle {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw BackupError(.io, "there is no file at \(url.path)")
    }
    if isDirectory.boolValue { throw BackupError(.io, "\(url.path) is a directory, not a backup (.zip)") }
    do { return try FileHandle(forReadingFrom: url) } catch {
      throw BackupError(.io, "cannot open \(url.path): \((error as NSError).localizedDescription)")
    }
  }

  private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) throws(BackupError) -> Data {
    do {
      try handle.seek(toOffset: offset)
      let data = try handle.read(upToCount: count) ?? Data()
      guard data.count == count else { throw BackupError(.notAZip, "the zip archive is truncated") }
      return data
    } catch let error as BackupError {
      throw error
    } catch {
      throw BackupError(.io, "cannot read the archive: \(error)")
    }
  }
}

extension Data {
  func u16(_ at: Int) -> UInt16 {
    let i = startIndex + at
    return UInt16(self[i]) | UInt16(self[i + 1]) << 8
  }
  func u32(_ at: Int) -> UInt32 {
    let i = startIndex + at
    return (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[i + $1]) << (8 * $1) }
  }
  func u64(_ at: Int) -> UInt64 {
    let i = startIndex + at
    return (0..<8).reduce(UInt64(0)) { $0 | UInt64(self[i + $1]) << (8 * $1) }
  }
}
