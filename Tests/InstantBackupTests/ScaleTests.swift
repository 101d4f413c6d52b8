import Foundation
import InstantBackup
import InstantCore
import Testing

/// A backup of 20,000 entities goes through the writer and the reader line by line (100,000 are
/// measured in release by `INSTANT_LOCAL_BENCH_BACKUP`, BENCHMARKS.md).
@Suite struct ScaleTests {
  @Test func twentyThousandEntities() throws {
    let dir = try TempDir()
    let count = 20_000
    var triples: [Triple] = []
    triples.reserveCapacity(count * 3)
    for i in 0..<count {
      let id = String(format: "%08x-0000-4000-8000-%012x", i, i)
      triples.append(Triple(id, SampleApp.tagsID, .string(id), Double(i)))
      triples.append(Triple(id, SampleApp.tagsLabel, .string("tag \(i)"), Double(i)))
    }
    let url = dir.file("big.zip")
    let start = Date()
    let summary = try BackupWriter(
      attrs: SampleApp.attrs, triples: triples, rules: nil, title: "big", appID: "x", backupAt: Date(), blobURL: { _ in nil }
    ).write(to: url)
    let written = Date()
    #expect(summary.counts == ["tags": count])
    #expect(summary.tripleCount == 2 * count)
    let plan = try BackupReader(systemAttrs: TestCatalog.attrs).read(url)
    #expect(plan.triples.count == 2 * count)
    #expect(plan.entityCounts == ["tags": count])
    print("\(count) entities: write \(written.timeIntervalSince(start))s, read \(Date().timeIntervalSince(written))s")
  }
}
