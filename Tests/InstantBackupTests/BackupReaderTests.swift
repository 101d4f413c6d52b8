import Foundation
@testable import InstantBackup
import InstantCore
import OrderedCollections
import Testing

/// What the reader accepts: archives shaped like the reference's downloads (zip64 fields and data
/// descriptors on every entry, jsonb spacing, arbitrary key order, system namespaces it does not
/// model, an old config without `appId`), written here by hand.
@Suite struct BackupReaderTests {
  static let file = "f1000000-0000-4000-8000-000000000001"
  static let location = "0b1c2d3e-4f50-4617-8283-94a5b6c7d8e9"
  static let stream = "51000000-0000-4000-8000-000000000001"
  static let token = "71000000-0000-4000-8000-000000000001"
  static let code = "61000000-0000-4000-8000-000000000001"
  static let user = "u1000000-0000-4000-8000-000000000001".replacingOccurrences(of: "u", with: "a")
  static let note1 = "B1000000-0000-4000-8000-00000000000A"
  static let note2 = "b2000000-0000-4000-8000-000000000002"
  static let png = Data([0x89, 0x50, 0x4E, 0x47])

  static let config = #"""
    {"title":"cloud app","tripleCount":21,"rules":null,"webhooks":[],"emailTemplates":[],
     "counts":{"$files":1,"$magicCodes":1,"$streams":1,"$userRefreshTokens":1,"$users":1,"notes":2},
     "schema":{"links":{
        "notesOwner":{"reverse":{"has":"many","label":"notes","on":"$users"},"forward":{"label":"owner","has":"one","on":"notes"}},
        "$streams$files":{"forward":{"on":"$streams","label":"$files","has":"many"},"reverse":{"on":"$files","label":"$stream","has":"one","onDelete":"cascade"}},
        "$usersLinkedPrimaryUser":{"forward":{"on":"$users","label":"linkedPrimaryUser","has":"one","onDelete":"cascade"},"reverse":{"on":"$users","label":"linkedGuestUsers","has":"many"}}},
      "entities":{
        "notes":{"attrs":{"text":{"config":{"indexed":false,"unique":false},"valueType":"string","required":true},"meta":{"valueType":"any","config":{"unique":false,"indexed":false}}}},
        "$streams":{"attrs":{"clientId":{"valueType":"string","config":{"unique":true,"indexed":true},"required":true},"done":{"valueType":"boolean","config":{"unique":false,"indexed":false}}}},
        "$users":{"attrs":{"email":{"valueType":"string","config":{"unique":true,"indexed":true}}}},
        "$files":{"attrs":{"path":{"valueType":"string","config":{"unique":true,"indexed":true},"required":true},"url":{"valueType":"string","config":{"unique":false,"indexed":false},"required":true}}}}}}
    """#

  static func lines(_ lines: String...) -> Data { Data(lines.map { $0 + "\n" }.joined().utf8) }

  /// The archive, every entry with zip64 fields and a data descriptor.
  static func cloudArchive(in dir: TempDir) throws -> URL {
    var items: [RawZip.Item] = [
      .init(name: "config.json", data: Data(config.utf8)),
      .init(name: "entities/$files.jsonl", data: lines(#"{"entity":{"content-disposition":null,"content-type":"image/png","id":"\#(file)","key-version":1,"location-id":"\#(location)","path":"a.png","size":4},"createdAt":1}"#)),
      .init(name: "entities/$magicCodes.jsonl", data: lines(#"{"entity":{"codeHash":"x","email":"a@b.c","id":"\#(code)"},"createdAt":2}"#)),
      .init(name: "entities/$streams.jsonl", data: lines(#"{"entity":{"abortReason":null,"clientId":"c","done":true,"$files":["\#(file)"],"hashedReconnectToken":"h","id":"\#(stream)","machineId":"m","size":4},"createdAt":3}"#)),
      .init(name: "entities/$userRefreshTokens.jsonl", data: lines(#"{"entity":{"hashedToken":"abc","id":"\#(token)","$user":"\#(user)"},"createdAt":4}"#)),
      .init(name: "entities/$users.jsonl", data: lines(#"{"entity":{"email":"a@example.com","id":"\#(user)"},"createdAt":5}"#)),
      .init(name: "entities/notes.jsonl", data: lines(
        #"{"entity":{"text":"hi ✓","id":"\#(note1)","owner":"\#(user.uppercased())","meta":{"b": [1, 2.5, -0.001], "a": {"c": null}}},"createdAt":6}"#,
        "",
        #"{"entity":{"id":"\#(note2)","text":"second"}}"#)),
      .init(name: "files/\(location)", data: png),
    ]
    for i in items.indices {
      items[i].zip64 = true
      items[i].dataDescriptor = true
    }
    let url = dir.file("cloud.zip")
    try RawZip.build(items).write(to: url)
    return url
  }

  @Test func readsAReferenceShapedArchive() throws {
    let dir = try TempDir()
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(try Self.cloudArchive(in: dir))
    #expect(plan.title == "cloud app")
    #expect(plan.rules == nil)
    #expect(plan.config["appId"] == nil)
    #expect(plan.skipped == ["$magicCodes": 1, "$streams": 1, "$userRefreshTokens": 1])
    #expect(plan.entityCounts == ["$files": 1, "$users": 1, "notes": 2])
    #expect(Set(plan.userAttrs.map(\.qualifiedName)) == ["notes.id", "notes.text", "notes.meta", "notes.owner"])
    let owner = try #require(plan.userAttrs.first { $0.qualifiedName == "notes.owner" })
    #expect(owner.isRef && owner.cardinality == .one && !owner.isUnique)
    #expect(owner.reverseIdentity?.etype == "$users" && owner.reverseIdentity?.label == "notes")
    let text = try #require(plan.userAttrs.first { $0.qualifiedName == "notes.text" })
    #expect(text.checkedDataType == "string" && text.isRequired)

    let byID = Dictionary(uniqueKeysWithValues: plan.attrs.map { ($0.id, $0.qualifiedName) })
    let facts = Set(plan.triples.map { "\($0.entity) \(byID[$0.attr] ?? "?") \($0.value.serialized()) \($0.createdAt.map { String(Int($0)) } ?? "nil")" })
    let n1 = Self.note1.lowercased()
    #expect(facts == [
      "\(Self.file) $files.content-disposition null 1", "\(Self.file) $files.content-type \"image/png\" 1",
      "\(Self.file) $files.id \"\(Self.file)\" 1", "\(Self.file) $files.key-version 1 1",
      "\(Self.file) $files.location-id \"\(Self.location)\" 1", "\(Self.file) $files.path \"a.png\" 1",
      "\(Self.file) $files.size 4 1",
      "\(Self.user) $users.email \"a@example.com\" 5", "\(Self.user) $users.id \"\(Self.user)\" 5",
      "\(n1) notes.text \"hi ✓\" 6", "\(n1) notes.id \"\(n1)\" 6", "\(n1) notes.owner \"\(Self.user)\" 6",
      #"\#(n1) notes.meta {"b":[1,2.5,-0.001],"a":{"c":null}} 6"#,
      "\(Self.note2) notes.id \"\(Self.note2)\" nil", "\(Self.note2) notes.text \"second\" nil",
    ])
    #expect(plan.blobs.count == 1)
    #expect(try plan.blobs[0].data() == Self.png)
  }

  @Test func extractsBlobsToFiles() throws {
    let dir = try TempDir()
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(try Self.cloudArchive(in: dir))
    let out = dir.file("blobs")
    try plan.extractBlobs(into: out)
    #expect(try Data(contentsOf: out.appendingPathComponent(Self.location)) == Self.png)
    #expect(plan.blobs[0].size == 4)
    #expect(plan.blobs[0].entryName == "files/\(Self.location)")
  }

  @Test func rewritingAReferenceArchiveKeepsWhatIsRestored() throws {
    let dir = try TempDir()
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(try Self.cloudArchive(in: dir))
    let blobs = dir.file("blobs")
    try plan.extractBlobs(into: blobs)
    let url = dir.file("local.zip")
    let summary = try BackupWriter(
      attrs: plan.attrs, triples: plan.triples, rules: plan.rules, title: "cloud app", appID: "x", backupAt: Date(),
      blobURL: { blobs.appendingPathComponent($0) }
    ).write(to: url)
    #expect(summary.counts == ["$files": 1, "$users": 1, "notes": 2])
    #expect(summary.tripleCount == 15)
    let notes = try Archives.text(url, "entities/notes.jsonl")
    #expect(notes == """
      {"entity":{"id":"\(Self.note1.lowercased())","meta":{"a": {"c": null}, "b": [1, 2.5, -0.001]},"owner":"\(Self.user)","text":"hi ✓"},"createdAt":6}
      {"entity":{"id":"\(Self.note2)","text":"second"},"createdAt":0}

      """)
    let again = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
    #expect(Set(again.triples.map { "\($0.entity) \($0.value.canonicalString)" }) == Set(plan.triples.map { "\($0.entity) \($0.value.canonicalString)" }))
  }

  @Test func storedEntriesAndPlainZipsAreRead() throws {
    let dir = try TempDir()
    let source = try Archives.writeSample(in: dir)
    let items = try Archives.entries(source).map { RawZip.Item(name: $0.name, data: $0.data, method: 0) }
    let url = dir.file("stored.zip")
    try RawZip.build(items).write(to: url)
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
    #expect(plan.triples.count == 39)
  }

  @Test func anEmptyBackupIsAnEmptyPlan() throws {
    let dir = try TempDir()
    let url = dir.file("empty.zip")
    try RawZip.build([.init(name: "config.json", data: Data(#"{"schema":{"entities":{},"links":{}},"counts":{}}"#.utf8))]).write(to: url)
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
    #expect(plan.triples.isEmpty && plan.userAttrs.isEmpty && plan.blobs.isEmpty && plan.title == nil)
  }

  @Test func aMissingArchiveOrADirectoryIsNamedSo() throws {
    let dir = try TempDir()
    for (url, says) in [(dir.file("nowhere.zip"), "there is no file at"), (dir.url, "is a directory, not a backup")] {
      do {
        _ = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
        Issue.record("read \(url.path)")
      } catch {
        #expect(error.description.contains(says), "\(error.description)")
        #expect(!error.description.contains("NSCocoaErrorDomain"), "\(error.description)")
      }
    }
  }

  @Test func aNamespaceWithOnlyAnIDGetsItsIDAttr() throws {
    // The reference's restore creates no id attr for `{"attrs":{}}` and then fails on its rows.
    let dir = try TempDir()
    let id = "d1000000-0000-4000-8000-000000000001"
    let url = dir.file("ids.zip")
    try RawZip.build([
      .init(name: "config.json", data: Data(#"{"schema":{"entities":{"marks":{"attrs":{}}},"links":{}}}"#.utf8)),
      .init(name: "entities/marks.jsonl", data: Self.lines(#"{"entity":{"id":"\#(id)"},"createdAt":9}"#)),
    ]).write(to: url)
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
    #expect(plan.userAttrs.map(\.qualifiedName) == ["marks.id"])
    #expect(plan.triples.map(\.entity) == [id])
  }

  @Test func blobsAreNotVerifiedWhenAskedNotTo() throws {
    let dir = try TempDir()
    let url = try Archives.sampleEdited(in: dir) { $0[try $0.index("files/\(SampleApp.locationID)")].badCRC = true }
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs, verifyBlobs: false).read(url)
    let error = try #require(throws: BackupError.self) { try plan.extractBlobs(into: dir.file("out")) }
    #expect(error.kind == .corruptEntry)
    #expect(!FileManager.default.fileExists(atPath: dir.file("out").appendingPathComponent(SampleApp.locationID).path))
  }
}
