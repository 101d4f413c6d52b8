import Foundation

/// Appends text to a new file through a buffer, so lines go to disk as they are made instead of
/// piling up in memory.
final class BufferedFile {
  let url: URL
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private static let flushAt = 1 << 20
  /// Bytes written so far.
  private(set) var size: UInt64 = 0

  /// Creates (or truncates) the file at `url`.
  init(url: URL) throws(BackupError) {
    self.url = url
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw BackupError(.io, "cannot create \(url.path)")
    }
    do { handle = try FileHandle(forWritingTo: url) } catch {
      throw BackupError(.io, "cannot open \(url.path): \(error)")
    }
    buffer.reserveCapacity(Self.flushAt)
  }

  deinit { try? handle.close() }

  /// Appends `text`'s UTF-8 bytes.
  func write(_ text: String) throws(BackupError) {
    buffer.append(contentsOf: text.utf8)
    size += UInt64(text.utf8.count)
    if buffer.count >= Self.flushAt { try flush() }
  }

  /// Writes what is buffered and closes the file.
  func close() throws(BackupError) {
    try flush()
    do { try handle.close() } catch { throw BackupError(.io, "cannot write \(url.path): \(error)") }
  }

  private func flush() throws(BackupError) {
    guard !buffer.isEmpty else { return }
    do { try handle.write(contentsOf: Data(buffer)) } catch { throw BackupError(.io, "cannot write \(url.path): \(error)") }
    buffer.removeAll(keepingCapacity: true)
  }
}
