/// Accumulates indented Swift source.
struct CodeWriter {
  private(set) var text = ""
  private var indentation = 0

  mutating func line(_ content: String = "") {
    if content.isEmpty {
      text += "\n"
    } else {
      for _ in 0..<indentation { text += "  " }
      text += content
      text += "\n"
    }
  }

  /// Writes `/// …` lines for `documentation`, if any.
  mutating func documentation(_ documentation: String?) {
    guard let documentation, !documentation.isEmpty else { return }
    for docLine in documentation.split(separator: "\n", omittingEmptySubsequences: false) {
      line(docLine.isEmpty ? "///" : "/// \(docLine)")
    }
  }

  /// Writes `header {`, the body one level deeper, and `}`.
  mutating func block(_ header: String, _ body: (inout CodeWriter) -> Void) {
    line(header + " {")
    indentation += 1
    body(&self)
    indentation -= 1
    line("}")
  }
}
