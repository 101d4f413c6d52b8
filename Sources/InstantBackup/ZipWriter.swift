import Foundation
import ZIPFoundation

/// Writes a zip archive entry by entry, each deflated from a file on disk, in the order they are
/// added (the central directory keeps that order, which restore depends on).
///
/// ZIPFoundation's `Archive` rewrites the whole central directory on every `addEntry`, which is
/// quadratic in the number of entries (a backup can have one entry per stored file), so this
/// writes the container itself and uses ZIPFoundation only to deflate. Entries carry UTF-8 names
/// (flag bit 11), no data descriptors (the local header is patched once the sizes are known), and
/// zip64 fields only where a size, an offset or the entry count needs them.
final class ZipWriter {
  private let handle: FileHandle
  private var offset: UInt64 = 0
  private var central = Data()
  private var count: UInt64 = 0
  private let dosTime: UInt16
  private let dosDate: UInt16
  private static let chunkSize = 64 * 1024

  /// Creates (or truncates) the archive at `url`; every entry gets `modified` as its time.
  init(url: URL, modified: Date) throws(BackupError) {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw BackupError(.io, "cannot create \(url.path)")
    }
    do { handle = try FileHandle(forWritingTo: url) } catch {
      throw BackupError(.io, "cannot open \(url.path) for writing: \(error)")
    }
    var (year, month, day, hour, minute, second) = ISOInstant.utcFields(modified)
    if year < 1980 { (year, month, day, hour, minute, second) = (1980, 1, 1, 0, 0, 0) }
    if year > 2107 { (year, month, day, hour, minute, second) = (2107, 12, 31, 23, 59, 58) }
    dosTime = UInt16(hour << 11 | minute << 5 | second / 2)
    dosDate = UInt16((year - 1980) << 9 | month << 5 | day)
  }

  deinit { try? handle.close() }

  /// Adds `name` with the bytes of the file at `source`, deflated.
  func addFile(name: String, source: URL) throws(BackupError) {
    let input: FileHandle
    do { input = try FileHandle(forReadingFrom: source) } catch {
      throw BackupError(.io, entry: name, "cannot read \(source.path): \(error)")
    }
    defer { try? input.close() }
    let size: UInt64
    do { size = try input.seekToEnd(); try input.seek(toOffset: 0) } catch {
      throw BackupError(.io, entry: name, "cannot read \(source.path): \(error)")
    }
    try add(name: name, size: size, read: input)
  }

  private func add(name: String, size: UInt64, read input: FileHandle) throws(BackupError) {
    let nameBytes = Data(name.utf8)
    guard nameBytes.count <= 0xFFFF else { throw BackupError(.invalidInput, entry: name, "the entry name is too long") }
    let headerOffset = offset
    // Deflate can grow incompressible data slightly; leave room before the 4 GiB limit.
    let zip64Local = size >= 0xFFFF_FFFF - 0x0100_0000
    var localExtra = Data()
    if zip64Local {
      localExtra.le16(0x0001); localExtra.le16(16); localExtra.le64(size); localExtra.le64(0)
    }
    try write(localHeader(name: nameBytes, crc: 0, compressed: 0, size: size, zip64: zip64Local, extra: localExtra))
    let dataStart = offset

    var compressed: UInt64 = 0
    let crc: UInt32
    do {
      crc = try Data.compress(
        size: Int64(size), bufferSize: Self.chunkSize,
        provider: { _, wanted in
          guard wanted > 0 else { return Data() }
          let chunk = try input.read(upToCount: wanted) ?? Data()
          guard chunk.count == wanted else { throw BackupError(.io, entry: name, "the source file changed size while it was read") }
          return chunk
        },
        consumer: { chunk in
          try self.handle.write(contentsOf: chunk)
          compressed += UInt64(chunk.count)
        })
    } catch let error as BackupError {
      throw error
    } catch {
      throw BackupError(.io, entry: name, "cannot write the entry: \(error)")
    }
    offset = dataStart + compressed
    if !zip64Local && compressed >= 0xFFFF_FFFF {
      throw BackupError(.io, entry: name, "the entry grew past 4 GiB when compressed")
    }

    // Patch the local header now that the CRC and the compressed size are known.
    var patchedExtra = Data()
    if zip64Local {
      patchedExtra.le16(0x0001); patchedExtra.le16(16); patchedExtra.le64(size); patchedExtra.le64(compressed)
    }
    do {
      try handle.seek(toOffset: headerOffset)
      try handle.write(
        contentsOf: localHeader(name: nameBytes, crc: crc, compressed: compressed, size: size, zip64: zip64Local, extra: patchedExtra))
      try handle.seek(toOffset: offset)
    } catch {
      throw BackupError(.io, entry: name, "cannot write the entry: \(error)")
    }

    // The central directory record, with zip64 fields for whatever overflows 32 bits.
    var zip64 = Data()
    let sizeOverflows = zip64Local || size >= 0xFFFF_FFFF
    let compressedOverflows = zip64Local || compressed >= 0xFFFF_FFFF
    let offsetOverflows = headerOffset >= 0xFFFF_FFFF
    if sizeOverflows { zip64.le64(size) }
    if compressedOverflows { zip64.le64(compressed) }
    if offsetOverflows { zip64.le64(headerOffset) }
    var extra = Data()
    if !zip64.isEmpty { extra.le16(0x0001); extra.le16(UInt16(zip64.count)); extra.append(zip64) }
    let needs64 = !zip64.isEmpty
    var record = Data()
    record.le32(0x0201_4B50)
    record.le16(3 << 8 | (needs64 ? 45 : 20))  // made by Unix
    record.le16(needs64 ? 45 : 20)
    record.le16(0x0800)  // UTF-8 name
    record.le16(8)  // deflate
    record.le16(dosTime)
    record.le16(dosDate)
    record.le32(crc)
    record.le32(compressedOverflows ? 0xFFFF_FFFF : UInt32(compressed))
    record.le32(sizeOverflows ? 0xFFFF_FFFF : UInt32(size))
    record.le16(UInt16(nameBytes.count))
    record.le16(UInt16(extra.count))
    record.le16(0)  // comment
    record.le16(0)  // disk
    record.le16(0)  // internal attributes
    record.le32(0o100644 << 16)  // regular file, rw-r--r--
    record.le32(offsetOverflows ? 0xFFFF_FFFF : UInt32(headerOffset))
    record.append(nameBytes)
    record.append(extra)
    central.append(record)
    count += 1
  }

  private func localHeader(name: Data, crc: UInt32, compressed: UInt64, size: UInt64, zip64: Bool, extra: Data) -> Data {
    var header = Data()
    header.le32(0x0403_4B50)
    header.le16(zip64 ? 45 : 20)
    header.le16(0x0800)
    header.le16(8)
    header.le16(dosTime)
    header.le16(dosDate)
    header.le32(crc)
    header.le32(zip64 ? 0xFFFF_FFFF : UInt32(compressed))
    header.le32(zip64 ? 0xFFFF_FFFF : UInt32(size))
    header.le16(UInt16(name.count))
    header.le16(UInt16(extra.count))
    header.append(name)
    header.append(extra)
    return header
  }

  /// Writes the central directory and the end records, and closes the file.
  func finish() throws(BackupError) {
    let centralOffset = offset
    let centralSize = UInt64(central.count)
    try write(central)
    central = Data()
    let needs64 = count >= 0xFFFF || centralOffset >= 0xFFFF_FFFF || centralSize >= 0xFFFF_FFFF
    var end = Data()
    if needs64 {
      let zip64EndOffset = offset
      end.le32(0x0606_4B50)
      end.le64(44)
      end.le16(3 << 8 | 45)
      end.le16(45)
      end.le32(0)
      end.le32(0)
      end.le64(count)
      end.le64(count)
      end.le64(centralSize)
      end.le64(centralOffset)
      end.le32(0x0706_4B50)
      end.le32(0)
      end.le64(zip64EndOffset)
      end.le32(1)
    }
    end.le32(0x0605_4B50)
    end.le16(0)
    end.le16(0)
    end.le16(needs64 ? 0xFFFF : UInt16(count))
    end.le16(needs64 ? 0xFFFF : UInt16(count))
    end.le32(needs64 ? 0xFFFF_FFFF : UInt32(centralSize))
    end.le32(needs64 ? 0xFFFF_FFFF : UInt32(centralOffset))
    end.le16(0)
    try write(end)
    do { try handle.synchronize(); try handle.close() } catch {
      throw BackupError(.io, "cannot finish the archive: \(error)")
    }
  }

  private func write(_ data: Data) throws(BackupError) {
    do { try handle.write(contentsOf: data) } catch { throw BackupError(.io, "cannot write the archive: \(error)") }
    offset += UInt64(data.count)
  }
}

extension Data {
  mutating func le16(_ v: UInt16) { append(UInt8(v & 0xFF)); append(UInt8(v >> 8)) }
  mutating func le32(_ v: UInt32) { for i in 0..<4 { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
  mutating func le64(_ v: UInt64) { for i in 0..<8 { append(UInt8(truncatingIfNeeded: v >> (8 * i))) } }
}
