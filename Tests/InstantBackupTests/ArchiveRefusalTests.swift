import Foundation
import InstantBackup
import InstantCore
import OrderedCollections
import Testing

/// Archives refused for their entries (names, order, presence) or for `config.json`. Each test
/// checks the kind of refusal and that it names the entry.
@Suite struct ArchiveRefusalTests {
  @Test func missingConfig() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0.remove(at: try $0.index("config.json")) }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .missingConfig)
    #expect(error.entry == "config.json")
    #expect(error.description == "config.json: the archive has no config.json, so it is not a backup")
  }

  @Test func configNotFirst() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      let config = items.remove(at: try items.index("config.json"))
      items.insert(config, at: 2)
    }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .configNotFirst)
    #expect(error.entry == "config.json")
    #expect(error.message.contains("entry 3"))
  }

  @Test(arguments: ["[1]", "\"schema\"", "{\"title\":\"x\"}", "{\"schema\":null}", "{\"schema\":false}", "{\"schema\":{\"entit"])
  func configWithoutASchemaObject(_ text: String) throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0[try $0.index("config.json")].data = Data(text.utf8) }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .malformedConfig)
    #expect(error.entry == "config.json")
  }

  @Test func configWithASchemaThatIsNotAnObject() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { try $0.editConfig { $0["schema"] = [1, 2] } }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .malformedConfig)
    #expect(error.entry == "config.json")
  }

  @Test func configWithALinkMissingItsCardinality() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) {
      try $0.editConfig { config in
        config["schema"] = ["links": ["postsAuthor": ["forward": ["on": "posts", "label": "author"], "reverse": ["on": "authors", "label": "posts", "has": "many"]]]]
      }
    }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .malformedConfig)
    #expect(error.message.contains("schema.links[\"postsAuthor\"].forward.has"))
  }

  @Test(arguments: [
    "files/../../etc/passwd", "/etc/passwd", "files\\evil", "entities/./posts.jsonl", "files//x",
    "entities/../config.json", "../outside", "C:/windows",
  ])
  func pathTraversal(_ name: String) throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0.append(RawZip.Item(name: name, data: Data("x".utf8))) }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .unsafeEntryName)
    #expect(error.entry == name)
  }

  @Test(arguments: [
    "notes.txt", "manifest.json", "entities/", "entities/posts.json", "files/", "entities/a/b.jsonl", "files/a/b",
    "entities/.jsonl", "Entities/posts.jsonl",
  ])
  func unknownEntry(_ name: String) throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      // Before the files/ entries, so that only the name is wrong.
      items.insert(RawZip.Item(name: name, data: Data()), at: 1)
    }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .unknownEntry)
    #expect(error.entry == name)
  }

  @Test func entitiesAfterFiles() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      items.append(items.remove(at: try items.index("entities/tags.jsonl")))
    }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .entryOrder)
    #expect(error.entry == "entities/tags.jsonl")
  }

  @Test func duplicateEntry() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { items in
      items.insert(items[try items.index("entities/tags.jsonl")], at: 1)
    }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .duplicateEntry)
    #expect(error.entry == "entities/tags.jsonl")
  }

  @Test func fileRowWithoutItsBlob() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0.remove(at: try $0.index("files/\(SampleApp.locationID)")) }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .missingBlob)
    #expect(error.entry == "entities/$files.jsonl")
    #expect(error.line == 1)
  }

  @Test func extraBlob() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0.append(RawZip.Item(name: "files/extra-blob", data: Data("x".utf8))) }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .extraBlob)
    #expect(error.entry == "files/extra-blob")
  }

  @Test func entryWithAWrongCRC() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0[try $0.index("entities/posts.jsonl")].badCRC = true }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .corruptEntry)
    #expect(error.entry == "entities/posts.jsonl")
  }

  @Test func blobWithAWrongCRC() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0[try $0.index("files/\(SampleApp.locationID)")].badCRC = true }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .corruptEntry)
    #expect(error.entry == "files/\(SampleApp.locationID)")
  }

  @Test func namespaceShorterThanItsCount() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { try $0.editLines("entities/posts.jsonl") { $0.removeLast() } }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .countMismatch)
    #expect(error.entry == "entities/posts.jsonl")
  }

  @Test func countedNamespaceWithoutItsFile() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0.remove(at: try $0.index("entities/tags.jsonl")) }
    let error = try #require(Archives.refusal(url))
    #expect(error.kind == .countMismatch)
    #expect(error.entry == "config.json")
    #expect(error.message.contains("entities/tags.jsonl"))
  }

  @Test func notAZip() throws {
    let dir = try TempDir()
    let url = dir.file("x.zip")
    try Data("this is not a zip file".utf8).write(to: url)
    #expect(Archives.refusal(url)?.kind == .notAZip)
  }

  @Test func truncatedZip() throws {
    let dir = try TempDir()
    let source = try Archives.writeSample(in: dir)
    let data = try Data(contentsOf: source)
    let url = dir.file("cut.zip")
    try data.prefix(data.count / 2).write(to: url)
    #expect(Archives.refusal(url)?.kind == .notAZip)
  }
}
