import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A key a terminal demo reacts to.
public enum Key: Equatable, Sendable {
  /// Printable text (one character; emoji and other non-ASCII characters arrive whole).
  case text(String)
  case enter
  case backspace
  case up, down, left, right
  /// Escape pressed on its own.
  case escape
  /// Ctrl-C (raw mode delivers it as a byte, not as a signal).
  case interrupt
  /// Ctrl-D, or stdin closed.
  case endOfInput
}

/// Turns stdin's bytes, one at a time, into ``Key``s: UTF-8 text, Enter (`\r`, `\n`, or `\r\n`
/// as one), Backspace (DEL or ^H), arrow keys (`ESC [ A`…`D`, also `ESC O A`…), Ctrl-C, Ctrl-D.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  private var utf8Needed = 0
  private var afterCarriageReturn = false

  public init() {}

  /// Feeds one byte; returns the keys it completes (usually none or one).
  public mutating func feed(_ byte: UInt8) -> [Key] {
    let skipNewline = afterCarriageReturn && byte == 0x0A
    afterCarriageReturn = false
    if skipNewline { return [] }
    if let first = pending.first, first == 0x1B { return escape(byte) }
    if utf8Needed > 0 {
      guard byte & 0xC0 == 0x80 else {
        pending = []
        utf8Needed = 0
        return feed(byte)
      }
      pending.append(byte)
      utf8Needed -= 1
      guard utf8Needed == 0 else { return [] }
      defer { pending = [] }
      return [.text(String(decoding: pending, as: UTF8.self))]
    }
    switch byte {
    case 0x1B:
      pending = [byte]
      return []
    case 0x0D:
      afterCarriageReturn = true
      return [.enter]
    case 0x0A: return [.enter]
    case 0x7F, 0x08: return [.backspace]
    case 0x03: return [.interrupt]
    case 0x04: return [.endOfInput]
    case 0x20..<0x7F: return [.text(String(UnicodeScalar(byte)))]
    case 0xC0..<0xE0: return startUTF8(byte, needing: 1)
    case 0xE0..<0xF0: return startUTF8(byte, needing: 2)
    case 0xF0..<0xF8: return startUTF8(byte, needing: 3)
    default: return []  // other control bytes (Tab, …) and stray continuation bytes
    }
  }

  /// What is left when input ends (a lone Escape).
  public mutating func finish() -> [Key] {
    defer { pending = [] }
    return pending == [0x1B] ? [.escape] : []
  }

  private mutating func startUTF8(_ byte: UInt8, needing count: Int) -> [Key] {
    pending = [byte]
    utf8Needed = count
    return []
  }

  private mutating func escape(_ byte: UInt8) -> [Key] {
    if pending.count == 1 {
      if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") {
        pending.append(byte)
        return []
      }
      pending = []
      return [.escape] + feed(byte)
    }
    // ESC [ … final byte (0x40…0x7E); parameters in between are skipped.
    guard (0x40...0x7E).contains(byte) else {
      pending.append(byte)
      if pending.count > 8 { pending = [] }
      return []
    }
    pending = []
    switch byte {
    case UInt8(ascii: "A"): return [.up]
    case UInt8(ascii: "B"): return [.down]
    case UInt8(ascii: "C"): return [.right]
    case UInt8(ascii: "D"): return [.left]
    default: return []
    }
  }
}

/// The keys typed on stdin, read byte by byte on a thread of their own; ends after
/// ``Key/endOfInput`` when stdin closes. The same code reads a terminal (in raw mode, see
/// ``Terminal``) and a pipe, so a test drives exactly what a person does.
public func keys(from fd: Int32 = 0) -> AsyncStream<Key> {
  let (stream, continuation) = AsyncStream<Key>.makeStream()
  let thread = Thread {
    var decoder = KeyDecoder()
    var byte: UInt8 = 0
    while true {
      let count = read(fd, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else { break }
      for key in decoder.feed(byte) { continuation.yield(key) }
    }
    for key in decoder.finish() { continuation.yield(key) }
    continuation.yield(.endOfInput)
    continuation.finish()
  }
  thread.start()
  return stream
}
