import Foundation

/// Splits a stream of byte chunks into `\n`-terminated lines, holding at most one line (plus one
/// chunk) in memory, and numbering them from 1.
struct LineSplitter {
  /// Lines longer than this are refused rather than buffered (a line is one entity).
  let maxLineBytes: Int
  private var pending: [UInt8] = []
  private(set) var lineNumber = 0

  init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

  /// Feeds a chunk; calls `line` for every line it completes (without the `\n`).
  mutating func feed(
    _ chunk: Data, entry: String, _ line: (_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(BackupError) -> Void
  ) throws(BackupError) {
    var failure: BackupError?
    chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      do throws(BackupError) { try split(raw.bindMemory(to: UInt8.self), entry: entry, line) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  private mutating func split(
    _ bytes: UnsafeBufferPointer<UInt8>, entry: String,
    _ line: (_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(BackupError) -> Void
  ) throws(BackupError) {
    var start = 0
    while start < bytes.count {
      guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
        try append(UnsafeBufferPointer(rebasing: bytes[start...]), entry: entry)
        return
      }
      lineNumber += 1
      if pending.isEmpty {
        try line(lineNumber, UnsafeBufferPointer(rebasing: bytes[start..<newline]))
      } else {
        try append(UnsafeBufferPointer(rebasing: bytes[start..<newline]), entry: entry)
        let whole = pending
        pending.removeAll(keepingCapacity: false)
        try whole.withUnsafeBufferPointer { (buffer) throws(BackupError) in try line(lineNumber, buffer) }
      }
      start = newline + 1
    }
  }

  /// Ends the stream: a last line without a `\n` is still a line.
  mutating func finish(
    entry: String, _ line: (_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(BackupError) -> Void
  ) throws(BackupError) {
    guard !pending.isEmpty else { return }
    lineNumber += 1
    let whole = pending
    pending = []
    try whole.withUnsafeBufferPointer { (buffer) throws(BackupError) in try line(lineNumber, buffer) }
  }

  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, entry: String) throws(BackupError) {
    guard pending.count + bytes.count <= maxLineBytes else {
      throw BackupError(.invalidLine, entry: entry, line: lineNumber + 1, "the line is longer than \(maxLineBytes) bytes")
    }
    pending.append(contentsOf: bytes)
  }
}
