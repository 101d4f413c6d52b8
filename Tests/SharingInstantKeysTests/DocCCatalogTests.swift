import Foundation
import Testing

/// Keeps `Sources/SharingInstant/SharingInstant.docc` and `DocCSampleTests.swift` in step: every
/// ```swift block of an article is, character for character, a snippet marked
/// `// docc:begin <Article>/<name>` … `// docc:end` in the test file (without its common
/// indentation), so a sample edited in one place and not the other fails here. (The landing page,
/// `SharingInstant.md`, may repeat any article's sample.) Blocks fenced
/// with another tag (```swift-nocompile, ```bash) are not compiled and not checked.
@Suite("DocC catalog")
struct DocCCatalogTests {
  static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let catalog = testsDirectory.appendingPathComponent("../../Sources/SharingInstant/SharingInstant.docc")
    .standardizedFileURL
  static let articles = ["GettingStarted", "Syncing", "Querying", "Presence", "Topics", "Auth", "Offline", "Testing"]

  @Test("Every ```swift block of every article is a marked snippet of that article in DocCSampleTests.swift")
  func blocksAreSnippets() throws {
    let snippets = try Self.snippets()
    for file in try Self.markdownFiles() {
      let article = file.deletingPathExtension().lastPathComponent
      let blocks = try Self.codeBlocks(in: String(contentsOf: file, encoding: .utf8)).filter { $0.language == "swift" }
      for block in blocks {
        let matches = snippets.filter { $0.value == block.code }.map(\.key)
        // The landing page may repeat an article's sample.
        #expect(
          article == "SharingInstant" ? !matches.isEmpty : matches.contains { $0.hasPrefix(article + "/") },
          "\(article).md, line \(block.line): this ```swift block is not a docc:begin \(article)/… snippet of DocCSampleTests.swift\(matches.isEmpty ? "" : " (it matches \(matches.sorted()))"):\n\(block.code)"
        )
      }
    }
  }

  @Test("Every marked snippet appears in its article, and every article has compiled samples")
  func snippetsAreUsed() throws {
    let snippets = try Self.snippets()
    #expect(!snippets.isEmpty)
    for (name, code) in snippets.sorted(by: { $0.key < $1.key }) {
      let article = String(name.split(separator: "/")[0])
      let file = Self.catalog.appendingPathComponent(article + ".md")
      guard FileManager.default.fileExists(atPath: file.path) else {
        Issue.record("snippet \(name) names \(article).md, which is not in the catalog")
        continue
      }
      let blocks = try Self.codeBlocks(in: String(contentsOf: file, encoding: .utf8)).filter { $0.language == "swift" }
      #expect(blocks.contains { $0.code == code }, "snippet \(name) is not a ```swift block of \(article).md")
    }
    for article in Self.articles {
      #expect(snippets.keys.contains { $0.hasPrefix(article + "/") }, "\(article).md has no compiled sample")
    }
  }

  @Test("The landing page names the module and links every article")
  func landingPage() throws {
    let files = try Self.markdownFiles().map { $0.deletingPathExtension().lastPathComponent }
    #expect(Set(files) == Set(Self.articles + ["SharingInstant"]))
    let landing = try String(contentsOf: Self.catalog.appendingPathComponent("SharingInstant.md"), encoding: .utf8)
    #expect(landing.hasPrefix("# ``SharingInstant``\n"))
    #expect(landing.contains("## Topics"))
    for article in Self.articles { #expect(landing.contains("<doc:\(article)>"), "the landing page does not link \(article)") }
  }

  @Test("The extraction itself: fences, tags, indentation and markers")
  func extraction() throws {
    let markdown = "Text\n\n```swift\nlet a = 1\n  if a > 0 {}\n```\n\n```swift-nocompile\nnope\n```\n"
    let blocks = Self.codeBlocks(in: markdown)
    #expect(blocks.map(\.language) == ["swift", "swift-nocompile"])
    #expect(blocks.first?.code == "let a = 1\n  if a > 0 {}")
    #expect(blocks.first?.line == 4)   // the fence is line 3

    let source = "  func f() {\n    // docc:begin A/b\n    let a = 1\n\n      a.go()\n    // docc:end\n  }\n"
    #expect(try Self.snippets(in: source) == ["A/b": "let a = 1\n\n  a.go()"])
    #expect(throws: CatalogError.self) { try Self.snippets(in: "// docc:begin A/b\nx\n") }
    #expect(throws: CatalogError.self) { try Self.snippets(in: "// docc:begin A/b\n// docc:end\n// docc:begin A/b\n// docc:end\n") }
  }

  // MARK: Reading

  struct CatalogError: Error, CustomStringConvertible {
    var description: String
  }

  static func markdownFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "md" }
  }

  static func snippets() throws -> [String: String] {
    try snippets(in: String(contentsOf: testsDirectory.appendingPathComponent("DocCSampleTests.swift"), encoding: .utf8))
  }

  /// The `docc:begin <name>` … `docc:end` blocks of `source`, each without its common indentation.
  static func snippets(in source: String) throws -> [String: String] {
    var result: [String: String] = [:]
    var current: (name: String, lines: [Substring])?
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("// docc:begin ") {
        guard current == nil else { throw CatalogError(description: "docc:begin inside \(current!.name)") }
        current = (String(trimmed.dropFirst("// docc:begin ".count)), [])
      } else if trimmed == "// docc:end" {
        guard let open = current else { throw CatalogError(description: "docc:end without docc:begin") }
        guard result[open.name] == nil else { throw CatalogError(description: "two snippets named \(open.name)") }
        result[open.name] = dedented(open.lines)
        current = nil
      } else if current != nil {
        current!.lines.append(line)
      }
    }
    if let current { throw CatalogError(description: "\(current.name) has no docc:end") }
    return result
  }

  /// The fenced code blocks of `markdown`: the fence's tag, the code without its common indentation,
  /// and the line the code starts on.
  static func codeBlocks(in markdown: String) -> [(language: String, code: String, line: Int)] {
    var blocks: [(language: String, code: String, line: Int)] = []
    var current: (language: String, lines: [Substring], line: Int)?
    for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed.hasPrefix("```") {
        current = (String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), [], index + 2)
      } else if let open = current, trimmed == "```" {
        blocks.append((open.language, dedented(open.lines), open.line))
        current = nil
      } else if current != nil {
        current!.lines.append(line)
      }
    }
    return blocks
  }

  /// `lines` joined, without the indentation they all share (blank lines aside) and trailing spaces.
  static func dedented(_ lines: [Substring]) -> String {
    let indents = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }
    let common = indents.min() ?? 0
    return lines.map { line in
      line.allSatisfy(\.isWhitespace) ? "" : String(line.dropFirst(common)).replacingOccurrences(
        of: "\\s+$", with: "", options: .regularExpression)
    }.joined(separator: "\n")
  }
}
