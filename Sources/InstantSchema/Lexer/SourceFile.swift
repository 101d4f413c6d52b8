/// The text of one schema module with its tokens and a way to turn offsets into locations.
struct SourceFile: Sendable {
  let path: String
  let bytes: [UInt8]
  let tokens: [Token]
  /// UTF-8 offsets at which each line starts.
  let lineStarts: [Int]

  init(path: String, text: String) throws(Diagnostic) {
    self.path = path
    var bytes = Array(text.utf8)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.replaceSubrange(0..<3, with: [0x20, 0x20, 0x20]) }
    self.bytes = bytes
    var lineStarts = [0]
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lineStarts.append(index + 1)
    }
    self.lineStarts = lineStarts
    var lexer = Lexer(bytes: bytes)
    do {
      self.tokens = try lexer.tokenize()
    } catch {
      var location = SourceLocation(file: path, line: 1, column: 1)
      Self.locate(error.offset, lineStarts: lineStarts, bytes: bytes, into: &location)
      throw .error(.syntax, error.message, at: location)
    }
  }

  func location(of offset: Int) -> SourceLocation {
    var location = SourceLocation(file: path, line: 1, column: 1)
    Self.locate(offset, lineStarts: lineStarts, bytes: bytes, into: &location)
    return location
  }

  func location(of token: Token) -> SourceLocation { location(of: token.start) }

  func text(from start: Int, to end: Int) -> String {
    String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
  }

  private static func locate(_ offset: Int, lineStarts: [Int], bytes: [UInt8], into location: inout SourceLocation) {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    let lineStart = lineStarts[low]
    let prefix = String(decoding: bytes[lineStart..<min(max(offset, lineStart), bytes.count)], as: UTF8.self)
    location.line = low + 1
    location.column = prefix.count + 1
  }
}
