import Foundation
@testable import InstantBackup
import InstantCore
import OrderedCollections
import Testing

/// Archives refused for a line of an `entities/*.jsonl` entry. Each test checks the kind of
/// refusal, the entry and the 1-based line.
@Suite struct LineRefusalTests {
  /// Edits a line's `entity` object.
  func editEntity(in dir: TempDir, _ name: String, line: Int, _ edit: @escaping (inout JSONObject) -> Void) throws -> URL {
    try Archives.sampleEdited(in: dir) { items in
      try items.editLines(name) { lines in
        var row = (try? JSON.parse(lines[line - 1]).objectValue) ?? [:]
        var entity = row["entity"]?.objectValue ?? [:]
        edit(&entity)
        row["entity"] = .object(entity)
        lines[line - 1] = JSON.object(row).serialized()
      }
    }
  }

  func expectRefusal(_ url: URL, _ kind: BackupError.Kind, _ entry: String, line: Int) throws -> BackupError {
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == kind)
    #expect(error.entry == entry)
    #expect(error.line == line)
    #expect(error.description.hasPrefix("\(entry), line \(line): "))
    return error
  }

  @Test func truncatedLine() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      let i = try items.index("entities/posts.jsonl")
      let text = String(decoding: items[i].data, as: UTF8.self)
      let secondLine = try #require(text.firstIndex(of: "\n")).utf16Offset(in: text) + 1
      items[i].data = items[i].data.prefix(secondLine + 40)
    }
    _ = try expectRefusal(url, .invalidLine, "entities/posts.jsonl", line: 2)
  }

  @Test(arguments: ["{\"entity\":", "not json", "[1,2]", "{\"createdAt\":1}", "{\"entity\":[],\"createdAt\":1}", "{\"entity\":{}} {}"])
  func unparsableLine(_ text: String) throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { try $0.editLines("entities/tags.jsonl") { $0[0] = text } }
    _ = try expectRefusal(url, .invalidLine, "entities/tags.jsonl", line: 1)
  }

  @Test func createdAtThatIsNotANumber() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) {
      try $0.editLines("entities/tags.jsonl") { $0[1] = $0[1].replacingOccurrences(of: "\"createdAt\":1754000050001", with: "\"createdAt\":\"yesterday\"") }
    }
    _ = try expectRefusal(url, .invalidLine, "entities/tags.jsonl", line: 2)
  }

  @Test func lineWithoutAnID() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 2) { $0["id"] = nil }
    _ = try expectRefusal(url, .missingEntityID, "entities/posts.jsonl", line: 2)
  }

  @Test func idThatIsNotAString() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 2) { $0["id"] = 42 }
    _ = try expectRefusal(url, .missingEntityID, "entities/posts.jsonl", line: 2)
  }

  @Test(arguments: ["post-2", "9f8e7d6c5b4a43928a1b0c9d8e7f6a5b", "9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5g", ""])
  func idThatIsNotAUUID(_ id: String) throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 2) { $0["id"] = .string(id) }
    _ = try expectRefusal(url, .invalidEntityID, "entities/posts.jsonl", line: 2)
  }

  @Test func duplicateIDs() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      try items.editLines("entities/tags.jsonl") { lines in lines.append(lines[0].replacingOccurrences(of: "\"x\"", with: "\"x2\"")) }
      try items.editConfig { $0["counts"] = ["$files": 1, "$users": 2, "authors": 2, "posts": 2, "tags": 3] }
    }
    let error = try expectRefusal(url, .duplicateEntityID, "entities/tags.jsonl", line: 3)
    #expect(error.message.contains("line 1"))
  }

  @Test func duplicateIDsDifferingInCase() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      try items.editLines("entities/tags.jsonl") { lines in
        lines.append(lines[0].replacingOccurrences(of: SampleApp.tagX, with: SampleApp.tagX.uppercased()).replacingOccurrences(of: "\"x\"", with: "\"x2\""))
      }
      try items.editConfig { $0["counts"] = ["$files": 1, "$users": 2, "authors": 2, "posts": 2, "tags": 3] }
    }
    _ = try expectRefusal(url, .duplicateEntityID, "entities/tags.jsonl", line: 3)
  }

  @Test func linkToAnIDThatExistsNowhere() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 2) { $0["author"] = "eeeeeeee-0000-4000-8000-000000000000" }
    let error = try expectRefusal(url, .danglingLink, "entities/posts.jsonl", line: 2)
    #expect(error.message.contains("posts.author"))
  }

  @Test func hasManyLinkToAnIDThatExistsNowhere() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/authors.jsonl", line: 2) {
      $0["pinnedPosts"] = [.string(SampleApp.hello), "eeeeeeee-0000-4000-8000-000000000000"]
    }
    _ = try expectRefusal(url, .danglingLink, "entities/authors.jsonl", line: 2)
  }

  @Test func linkThatIsNotAUUID() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 1) { $0["author"] = 7 }
    _ = try expectRefusal(url, .invalidValue, "entities/posts.jsonl", line: 1)
  }

  @Test func hasManyLinkThatIsNotAnArray() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 1) { $0["tags"] = .string(SampleApp.tagX) }
    _ = try expectRefusal(url, .invalidValue, "entities/posts.jsonl", line: 1)
  }

  @Test func fileRowWithoutALocationID() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/$files.jsonl", line: 1) { $0["location-id"] = nil }
    let error = try expectRefusal(url, .missingLocationID, "entities/$files.jsonl", line: 1)
    #expect(error.message.contains("location-id"))
  }

  @Test(arguments: ["../escape", "a/b", ".."])
  func fileRowWithAnUnsafeLocationID(_ id: String) throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/$files.jsonl", line: 1) { $0["location-id"] = .string(id) }
    _ = try expectRefusal(url, .unsafeEntryName, "entities/$files.jsonl", line: 1)
  }

  @Test func keyWithoutAnAttr() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 1) { $0["subtitle"] = "hi" }
    let error = try expectRefusal(url, .missingAttr, "entities/posts.jsonl", line: 1)
    #expect(error.message == "Missing attr for posts.subtitle")
  }

  @Test func reverseLabelInALine() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/authors.jsonl", line: 1) { $0["posts"] = [.string(SampleApp.hello)] }
    let error = try expectRefusal(url, .missingAttr, "entities/authors.jsonl", line: 1)
    #expect(error.message == "Missing attr for authors.posts")
  }

  @Test func derivedFileURLInALine() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/$files.jsonl", line: 1) { $0["url"] = "http://x" }
    let error = try expectRefusal(url, .missingAttr, "entities/$files.jsonl", line: 1)
    #expect(error.message.hasPrefix("Missing attr for $files.url"))
  }

  @Test(arguments: [("score", JSON.string("high")), ("title", JSON.number(3)), ("publishedAt", JSON.string("not a date")), ("publishedAt", JSON.bool(true))])
  func valueOfTheWrongType(_ label: String, _ value: JSON) throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/posts.jsonl", line: 2) { $0[label] = value }
    let error = try expectRefusal(url, .invalidValue, "entities/posts.jsonl", line: 2)
    #expect(error.message.contains("posts.\(label)"))
  }

  @Test func uniqueValueTwice() throws {
    let dir = try TempDir()
    let url = try editEntity(in: dir, "entities/authors.jsonl", line: 2) { $0["name"] = .string(SampleApp.escapedName) }
    let error = try expectRefusal(url, .uniqueConflict, "entities/authors.jsonl", line: 2)
    #expect(error.message.contains("line 1"))
  }

  @Test func overlongLine() throws {
    // A line is held whole while it is parsed; the cap keeps a damaged file from filling memory.
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      let i = try items.index("entities/tags.jsonl")
      items[i].data = Data(#"{"entity":{"id":"\#(SampleApp.tagX)","label":""#.utf8) + Data(repeating: UInt8(ascii: "x"), count: 2_000_000)
    }
    var reader = BackupReader(systemAttrs: TestCatalog.attrs)
    reader.maxLineBytes = 1_500_000
    let error = try #require(throws: BackupError.self) { try reader.read(url) }
    #expect(error.kind == .invalidLine)
    #expect(error.entry == "entities/tags.jsonl")
    #expect(error.line == 1)
  }
}
