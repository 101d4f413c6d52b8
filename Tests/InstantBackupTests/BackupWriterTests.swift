import Foundation
@testable import InstantBackup
import InstantCore
import OrderedCollections
import Testing
import ZIPFoundation

/// The writer's output, checked against the documented format (lines written by hand in
/// ``SampleApp``).
@Suite struct BackupWriterTests {
  @Test func entriesAreInTheReferenceOrderAndDeflated() throws {
    let dir = try TempDir()
    let url = try Archives.writeSample(in: dir)
    let archive = try Archive(url: url, accessMode: .read)
    let entries = Array(archive)
    #expect(
      entries.map(\.path) == [
        "config.json", "entities/$files.jsonl", "entities/$users.jsonl", "entities/authors.jsonl",
        "entities/posts.jsonl", "entities/tags.jsonl", "files/\(SampleApp.locationID)",
      ])
    for entry in entries {
      #expect(entry.type == .file, "\(entry.path) is not a directory")
      #expect(entry.isCompressed, "\(entry.path) is deflated")
    }
  }

  @Test func entityLinesMatchTheFormatByteForByte() throws {
    let dir = try TempDir()
    let url = try Archives.writeSample(in: dir)
    #expect(try Archives.text(url, "entities/posts.jsonl") == SampleApp.expectedPosts)
    #expect(try Archives.text(url, "entities/$files.jsonl") == SampleApp.expectedFiles)
    #expect(try Archives.text(url, "entities/$users.jsonl") == SampleApp.expectedUsers)
    #expect(try Archives.text(url, "entities/tags.jsonl") == SampleApp.expectedTags)
    let authors = try Archives.text(url, "entities/authors.jsonl")
    #expect(authors == SampleApp.expectedAuthors)
    #expect(authors.utf8.count > 1_200_000)
  }

  @Test func linksAreWrittenOnlyOnTheForwardSide() throws {
    let dir = try TempDir()
    let url = try Archives.writeSample(in: dir)
    for line in try Archives.text(url, "entities/authors.jsonl").split(separator: "\n") {
      let entity = try #require(try JSON.parse(String(line))["entity"]?.objectValue)
      #expect(entity["posts"] == nil, "the reverse label of posts.author is not written")
    }
    for line in try Archives.text(url, "entities/posts.jsonl").split(separator: "\n") {
      let entity = try #require(try JSON.parse(String(line))["entity"]?.objectValue)
      #expect(entity["pinnedBy"] == nil)
      #expect(entity["author"]?.stringValue == SampleApp.alice, "has-one: a bare id")
    }
    #expect(!(try Archives.text(url, "entities/$files.jsonl")).contains("\"url\""))
  }

  @Test func configHasTheReferenceKeysInOneCompactLine() throws {
    let dir = try TempDir()
    let url = try Archives.writeSample(in: dir)
    let text = try Archives.text(url, "config.json")
    #expect(!text.hasSuffix("\n"))
    #expect(!text.contains("\n"))
    let config = try #require(try JSON.parse(text).objectValue)
    #expect(
      Array(config.keys) == [
        "counts", "tripleCount", "schema", "rules", "webhooks", "emailTemplates", "authorizedRedirectOrigins", "title",
        "appId", "backupAt", "isn", "description",
      ])
    #expect(text.hasPrefix(#"{"counts":{"$files":1,"$users":2,"authors":2,"posts":2,"tags":2},"tripleCount":39,"#))
    #expect(config["schema"] == SampleApp.expectedSchema)
    #expect(config["rules"] == SampleApp.rules)
    #expect(config["webhooks"] == [])
    #expect(config["emailTemplates"] == [])
    #expect(config["authorizedRedirectOrigins"] == [])
    #expect(config["title"] == "demo")
    #expect(config["appId"] == .string(SampleApp.appID))
    #expect(config["backupAt"] == "2026-08-20T17:03:11.402118Z")
    #expect(config["isn"] == .null)
    #expect(config["description"] == "On-demand backup")
  }

  @Test func configWithoutRulesWritesNull() throws {
    let dir = try TempDir()
    let url = dir.file("empty.zip")
    let summary = try BackupWriter(
      attrs: TestCatalog.attrs, triples: [], rules: nil, title: "empty", appID: SampleApp.appID,
      backupAt: Date(timeIntervalSince1970: 0), blobURL: { _ in nil }
    ).write(to: url)
    #expect(summary.entries == ["config.json"])
    let config = try #require(try JSON.parse(try Archives.text(url, "config.json")).objectValue)
    #expect(config["rules"] == .null)
    #expect(config["counts"] == [:])
    #expect(config["tripleCount"] == 0)
    #expect(config["backupAt"] == "1970-01-01T00:00:00Z")
  }

  @Test func aLinkToAnIDThatWasNeverCreatedIsLeftOutAndCounted() throws {
    let dir = try TempDir()
    let nowhere = "eeeeeeee-0000-4000-8000-000000000000"
    let triples = SampleApp.triples + [Triple(SampleApp.second, SampleApp.postsTags, .string(nowhere), 1)]
    let url = dir.file("dangling.zip")
    let blobs = dir.file("b")
    try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true)
    try SampleApp.blob.write(to: blobs.appendingPathComponent(SampleApp.locationID))
    let summary = try BackupWriter(
      attrs: SampleApp.attrs, triples: triples, rules: nil, title: "t", appID: SampleApp.appID, backupAt: SampleApp.backupAt,
      blobURL: { blobs.appendingPathComponent($0) }
    ).write(to: url)
    #expect(summary.droppedLinks == 1)
    #expect(summary.tripleCount == 39)
    #expect(try Archives.text(url, "entities/posts.jsonl") == SampleApp.expectedPosts)
  }

  @Test func anEntityWithoutAnIDTripleStillGetsItsID() throws {
    let dir = try TempDir()
    let loose = "dddddddd-0000-4000-8000-000000000000"
    let triples = SampleApp.triples + [Triple(loose.uppercased(), SampleApp.tagsLabel, "z", 1_000)]
    let url = try Archives.writeSample(in: dir, triples: triples)
    let tags = try Archives.text(url, "entities/tags.jsonl")
    #expect(tags.hasSuffix("{\"entity\":{\"id\":\"\(loose)\",\"label\":\"z\"},\"createdAt\":1000}\n"))
  }

  @Test func replacesAnExistingFileAndLeavesNoPartialFiles() throws {
    let dir = try TempDir()
    let url = dir.file("backup.zip")
    try Data("old".utf8).write(to: url)
    _ = try Archives.writeSample(in: dir)
    #expect(try Archives.entries(url).count == 7)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
    #expect(!names.contains { $0.hasSuffix(".partial") })
  }
}

/// What the writer refuses to put in a backup.
@Suite struct BackupWriterRefusalTests {
  func write(_ triples: [Triple], attrs: [Attr] = SampleApp.attrs, blob: Bool = true) throws(BackupError) {
    let dir = try? TempDir()
    let url = dir?.file("x.zip") ?? URL(fileURLWithPath: "/tmp/x.zip")
    try BackupWriter(
      attrs: attrs, triples: triples, rules: nil, title: "t", appID: "a", backupAt: Date(),
      blobURL: { _ in
        guard blob, let dir else { return nil }
        let url = dir.file("blob")
        try Data("b".utf8).write(to: url)
        return url
      }
    ).write(to: url)
  }

  @Test func aTripleOfAnUnknownAttr() {
    #expect(throws: BackupError.self) { try write([Triple(SampleApp.alice, "no-such-attr", 1)]) }
  }

  @Test func twoValuesForAHasOneAttribute() throws {
    let error = try #require(throws: BackupError.self) {
      try write([Triple(SampleApp.alice, SampleApp.authorsName, "a"), Triple(SampleApp.alice, SampleApp.authorsName, "b")])
    }
    #expect(error.kind == .invalidInput)
    #expect(error.message.contains("authors.name"))
  }

  @Test func anEntityIDThatIsNotAUUID() throws {
    let error = try #require(throws: BackupError.self) { try write([Triple("alice", SampleApp.authorsName, "a")]) }
    #expect(error.kind == .invalidInput)
  }

  @Test func aFileWithoutItsBlob() throws {
    let triples = SampleApp.triples.filter { $0.entity == SampleApp.file }
    let error = try #require(throws: BackupError.self) { try write(triples, blob: false) }
    #expect(error.kind == .invalidInput)
    #expect(error.message.contains(SampleApp.locationID))
  }

  @Test func aFileWithoutALocationID() throws {
    let triples = SampleApp.triples.filter { $0.entity == SampleApp.file && $0.attr != TestCatalog.filesLocationID }
    let error = try #require(throws: BackupError.self) { try write(triples) }
    #expect(error.message.contains("no location-id"))
  }

  @Test func twoAttrsWithTheSameName() throws {
    let twin = Attr(id: "b0000000-0000-4000-8000-000000000000", forward: Ident(id: "x", etype: "authors", label: "name"))
    let error = try #require(throws: BackupError.self) { try write([], attrs: SampleApp.attrs + [twin]) }
    #expect(error.message.contains("authors.name"))
  }
}
