import Foundation
import InstantAdmin
import InstantCore
import InstantLocal
import Logging
internal import OrderedCollections

/// `INSTANT_LOCAL_BENCH_BACKUP=100000 instant-local-bench`: backup and restore throughput for an
/// app of that many entities (each with a title, a number and a link to one of 1,000 groups), on
/// a data file in a temporary directory; three rounds, each a backup of the live app then a
/// restore into a fresh data file.
func runBackupBench(entities: Int) async throws {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backup-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var logger = Logger(label: "instant-local")
  logger.logLevel = .error
  let server = try InstantLocalServer(
    configuration: .init(port: 0, storage: .file(directory.appendingPathComponent("live.sqlite").path), maxMessageBytes: 64 << 20),
    logger: logger)
  try await server.start()
  let app = try server.apps.create(title: "Backup bench")
  let admin = InstantAdmin(appID: app.id, adminToken: app.adminToken, apiURI: await server.baseURL!)

  let groups = (0..<1000).map { _ in UUID().uuidString.lowercased() }
  try await admin.transact(groups.enumerated().map { .update("groups", .id($1), ["name": .string("group \($0)")]) })
  let loadStart = ContinuousClock.now
  var made = 0
  while made < entities {
    let batch = min(2000, entities - made)
    var ops: [InstaMLOp] = []
    for i in made..<(made + batch) {
      let id = UUID().uuidString.lowercased()
      ops.append(.update("items", .id(id), ["title": .string("item \(i) — ünïcode"), "n": .number(Double(i))]))
      ops.append(.link("items", .id(id), ["groups": .string(groups[i % groups.count])]))
    }
    try await admin.transact(ops)
    made += batch
  }
  print("loaded \(entities) entities in \(ContinuousClock.now - loadStart)")

  for round in 1...3 {
    let archive = directory.appendingPathComponent("round-\(round).zip")
    let backupStart = ContinuousClock.now
    let report = try server.apps.backup(appID: app.id, to: archive)
    let backupTime = ContinuousClock.now - backupStart
    let size = (try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber)?.intValue ?? 0
    let restoreStart = ContinuousClock.now
    let restored = try AppCatalog(dataFile: directory.appendingPathComponent("restored-\(round).sqlite").path)
      .restore(from: archive)
    let restoreTime = ContinuousClock.now - restoreStart
    let total = report.counts.values.reduce(0, +)
    func rate(_ duration: Duration) -> Int {
      Int(Double(total) / (Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18))
    }
    print(
      "round \(round): backup \(total) entities (\(report.tripleCount) triples, \(size / 1024) KiB) in \(backupTime) = \(rate(backupTime))/s; "
        + "restore in \(restoreTime) = \(rate(restoreTime))/s (\(restored.counts.values.reduce(0, +)) entities)")
  }
  await server.stop()
}
