import Foundation
@testable import InstantBackup
import InstantCore
import OrderedCollections
import Testing

/// Write → read → rebuild the app from the plan → write again.
@Suite struct RoundTripTests {
  /// Reads `url` and writes the plan back out (blobs extracted to a directory first).
  func rewrite(_ url: URL, in dir: TempDir, appID: String = SampleApp.appID) throws -> (RestorePlan, URL) {
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
    let blobs = dir.file("extracted")
    try plan.extractBlobs(into: blobs)
    let again = dir.file("again.zip")
    try BackupWriter(
      attrs: plan.attrs, triples: plan.triples, rules: plan.rules, title: try #require(plan.title), appID: appID,
      backupAt: SampleApp.backupAt, blobURL: { blobs.appendingPathComponent($0) }
    ).write(to: again)
    return (plan, again)
  }

  @Test func secondWriteIsByteIdentical() throws {
    let dir = try TempDir()
    let first = try Archives.writeSample(in: dir)
    let (_, second) = try rewrite(first, in: dir)
    let a = try Archives.entries(first)
    let b = try Archives.entries(second)
    #expect(a.map(\.name) == b.map(\.name))
    for (x, y) in zip(a, b) {
      #expect(x.data == y.data, "\(x.name) differs after a round trip")
    }
  }

  @Test func configDiffersOnlyInAppIDWhenRestoredAsANewApp() throws {
    let dir = try TempDir()
    let first = try Archives.writeSample(in: dir)
    let (_, second) = try rewrite(first, in: dir, appID: "99999999-2222-4333-8444-555555555555")
    var a = try #require(try JSON.parse(try Archives.text(first, "config.json")).objectValue)
    var b = try #require(try JSON.parse(try Archives.text(second, "config.json")).objectValue)
    #expect(a["appId"] != b["appId"])
    a["appId"] = nil
    b["appId"] = nil
    #expect(JSON.object(a).serialized() == JSON.object(b).serialized())
  }

  @Test func planHasFreshUserAttrIDsAndKeepsSystemIDs() throws {
    let dir = try TempDir()
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(try Archives.writeSample(in: dir))
    let originalIDs = Set(SampleApp.userAttrs.flatMap { [$0.id, $0.forwardIdentity.id] + [$0.reverseIdentity?.id].compactMap { $0 } })
    #expect(plan.userAttrs.count == SampleApp.userAttrs.count)
    for attr in plan.userAttrs {
      #expect(!originalIDs.contains(attr.id))
      #expect(!originalIDs.contains(attr.forwardIdentity.id))
      #expect(UUIDText.isValid(attr.id))
    }
    #expect(plan.systemAttrs.map(\.id) == TestCatalog.attrs.map(\.id))
    let idents = { (attrs: [Attr]) in
      Set(attrs.map { "\($0.qualifiedName) \($0.valueType) \($0.cardinality?.rawValue ?? "") u\($0.isUnique) i\($0.isIndexed) r\($0.isRequired) \($0.checkedDataType ?? "-") \($0.reverseIdentity.map { "\($0.etype).\($0.label)" } ?? "") \($0.onDelete ?? "") \($0.onDeleteReverse ?? "")" })
    }
    #expect(idents(plan.userAttrs) == idents(SampleApp.userAttrs))
  }

  @Test func planTriplesAreTheAppsTriples() throws {
    let dir = try TempDir()
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(try Archives.writeSample(in: dir))
    func facts(_ triples: [Triple], _ attrs: [Attr]) -> Set<String> {
      let byID = Dictionary(uniqueKeysWithValues: attrs.map { ($0.id, $0.qualifiedName) })
      return Set(triples.compactMap { t in
        guard let name = byID[t.attr], name != "$files.url" else { return nil }
        return "\(t.entity) \(name) \(t.value.canonicalString)"
      })
    }
    #expect(facts(plan.triples, plan.attrs) == facts(SampleApp.triples, SampleApp.attrs))
    #expect(plan.triples.count == 39)
    // Every triple of a line carries the createdAt of the entity's id triple.
    let hello = plan.triples.filter { $0.entity == SampleApp.hello }
    #expect(Set(hello.map(\.createdAt)) == [1_754_000_200_000])
    #expect(plan.rules == SampleApp.rules)
    #expect(plan.title == "demo")
    #expect(plan.entityCounts == ["$files": 1, "$users": 2, "authors": 2, "posts": 2, "tags": 2])
    #expect(plan.skipped.isEmpty)
    #expect(plan.blobs.map(\.locationID) == [SampleApp.locationID])
    #expect(plan.blobs.first?.fileID == SampleApp.file)
    #expect(try plan.blobs.first?.data() == SampleApp.blob)
  }

  /// A link made without a schema can name a target namespace that has no attributes at all.
  static let reviewer = Attr(
    id: "a0000000-0000-4000-8000-000000000041", forward: Ident(id: "f1", etype: "posts", label: "reviewer"),
    reverse: Ident(id: "e1", etype: "reviewers", label: "reviewed"), valueType: "ref", cardinality: .one)

  @Test func aNamespaceThatIsOnlyALinkTargetGetsNoIDAttr() throws {
    let dir = try TempDir()
    let first = try Archives.writeSample(in: dir, attrs: SampleApp.attrs + [Self.reviewer])
    let (plan, second) = try rewrite(first, in: dir)
    #expect(!plan.userAttrs.contains { $0.forwardIdentity.etype == "reviewers" })
    #expect(try Archives.text(first, "config.json") == (try Archives.text(second, "config.json")))
  }

  @Test func aNamespaceWhoseOnlyAttributesAreLinksGetsAnIDAttrForItsRows() throws {
    let dir = try TempDir()
    let mark = "e0000000-0000-4000-8000-000000000001"
    let markPost = Attr(
      id: "a0000000-0000-4000-8000-000000000042", forward: Ident(id: "f2", etype: "marks", label: "post"),
      reverse: Ident(id: "e2", etype: "posts", label: "marks"), valueType: "ref", cardinality: .one)
    let first = try Archives.writeSample(
      in: dir, attrs: SampleApp.attrs + [markPost], triples: SampleApp.triples + [Triple(mark, markPost.id, .string(SampleApp.hello), 7)])
    #expect(try Archives.text(first, "entities/marks.jsonl") == #"{"entity":{"id":"\#(mark)","post":"\#(SampleApp.hello)"},"createdAt":7}"# + "\n")
    let (plan, second) = try rewrite(first, in: dir)
    let id = try #require(plan.userAttrs.first { $0.qualifiedName == "marks.id" })
    #expect(plan.triples.contains(Triple(mark, id.id, .string(mark), 7)))
    #expect(try Archives.text(second, "entities/marks.jsonl") == (try Archives.text(first, "entities/marks.jsonl")))
  }
}
