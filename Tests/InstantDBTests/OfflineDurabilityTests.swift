import GRDB
import Foundation
import InstantCore
import InstantDB
import InstantLocal
import Testing
import TestSupport
internal import OrderedCollections

/// Writes made offline survive the process and land exactly once, in order.
@Suite("Offline durability", .timeLimit(.minutes(10)))
struct OfflineDurabilityTests {
  @Test("100 offline writes survive a client restart and a server restart, and land once, in order")
  func hundredOfflineWrites() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let serverFile = dir.appendingPathComponent("server.sqlite").path
    let clientFile = InstantStorage.sqlite(dir.appendingPathComponent("a.sqlite"))

    // A learns the attrs while online, then the server goes away.
    let (first, port) = try await withServer(dataFile: serverFile, port: portForRestarts()) { server in
      let a = server.client(storage: clientFile)
      try await a.transact(.update("items", .id(InstantID.make()), ["n": 0])).synced()
      return (a, server.port)
    }
    try await eventually("A notices the server is gone") { await first.status != .authenticated }

    // Each write adds an item and overwrites one counter: the counter ends at 100 only if the
    // writes were applied in the order they were made.
    let counter = InstantID.make()
    for n in 1...100 {
      try await first.transact([
        .update("items", .id(InstantID.make()), ["n": .number(Double(n))]),
        .update("counters", .id(counter), ["last": .number(Double(n))]),
      ])
    }
    let pendingCount = await first.pendingWrites.count
    #expect(pendingCount == 100)
    await first.shutdown()

    let reopened = LocalServer.client(port: port, storage: clientFile)
    let reloadedCount = await reopened.pendingWrites.count
    #expect(reloadedCount == 100)
    try await withServer(dataFile: serverFile, port: port) { server in
      await reopened.reconnectNow()
      let b = server.client()
      let watchB = Watcher(b.subscribe(["items": [:], "counters": [:]]))
      let result = try await watchB.next { $0.rows("items").count >= 101 }
      let ns = result.column("items", "n").compactMap(\.numberValue).sorted()
      #expect(ns == (0...100).map(Double.init), "every write exactly once")
      #expect(result.column("counters", "last") == [100], "applied in the order they were made")
      try await eventually("A's queue drains") { await reopened.pendingWrites.allSatisfy { $0.state == .synced } }
      await reopened.shutdown()
      await b.shutdown()
    }
  }

  @Test("A subscriber gets the cached result before any network")
  func coldStartFromCache() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let clientFile = InstantStorage.sqlite(dir.appendingPathComponent("a.sqlite"))
    let query: JSON = ["todos": ["$": ["order": ["serverCreatedAt": "asc"]]]]
    try await withServer { server in
      let a = server.client(storage: clientFile)
      let watch = Watcher(a.subscribe(query))
      try await watch.next { !$0.isFromCache }
      try await a.transact([
        .update("todos", .id(InstantID.make()), ["title": "one"]),
        .update("todos", .id(InstantID.make()), ["title": "two"]),
      ]).synced()
      try await watch.next { $0.rows("todos").count == 2 && !$0.hasPendingWrites }
      watch.stop()
      await a.shutdown()
    }
    // The server is gone; the cache answers.
    let a = LocalServer.client(port: 1, storage: clientFile)
    defer { Task { await a.shutdown() } }
    let watch = Watcher(a.subscribe(query))
    let cached = try await watch.next { !$0.rows("todos").isEmpty }
    #expect(cached.isFromCache)
    #expect(Set(cached.column("todos", "title")) == ["one", "two"])
  }

  @Test("A real database file truncated or garbled between runs: the client starts, says so if it cannot read it, and works", arguments: Array(UInt64(1)...6))
  func damagedDatabase(seed: UInt64) async throws {
    var rng = SeededGenerator(seed: seed)
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("a.sqlite")
    let running = dir.appendingPathComponent("running.sqlite")
    let first = LocalServer.client(port: 1, storage: .sqlite(running))
    for i in 0..<60 { try await first.transact(.update("todos", .id(InstantID.make()), ["title": .string("write \(i) " + String(repeating: "x", count: 200))])) }
    let queued = await first.pendingWrites.map(\.id)
    // The files as a crash would leave them: the writes still in the write-ahead log.
    crashCopy(of: running, to: file)
    await first.shutdown()
    // The writes live in the write-ahead log until a checkpoint; damage whichever holds more.
    let wal = URL(fileURLWithPath: file.path + "-wal")
    let walSize = (try? Data(contentsOf: wal).count) ?? 0
    let target = walSize > (try Data(contentsOf: file)).count ? wal : file
    var bytes = try Data(contentsOf: target)
    #expect(bytes.count > 8192, "the file has pages to damage")
    if Bool.random(using: &rng) {
      bytes = bytes.prefix(Int.random(in: 100..<bytes.count, using: &rng))
    } else {
      for _ in 0..<8 {
        let at = Int.random(in: 0..<bytes.count - 64, using: &rng)
        for offset in at..<(at + 64) { bytes[offset] = UInt8.random(in: 0...255, using: &rng) }
      }
    }
    try bytes.write(to: target)

    let errors = ExpectedErrors([], allowing: ["the local database \(file.path) "])
    let second = LocalServer.client(port: 1, storage: .sqlite(file), logger: errors.logger)
    defer { Task { await second.shutdown() } }
    let back = await second.pendingWrites.map(\.id)
    let before = back.count
    // What comes back is queued writes in their order, never garbage: all of them, or those
    // before the damage. SQLite treats a damaged write-ahead log from the damage on as never
    // committed, silently (as after a power cut under `synchronous = NORMAL`), so a shorter
    // queue need not be reported; a garbled row in a readable file is dropped and reported
    // (`.repaired`); a file that cannot be opened is set aside (`.unreadable`). A copy of a damaged
    // file is always kept.
    #expect(isInOrder(back, within: queued), "seed \(seed): \(before) writes back, not in their order")
    switch second.storageProblem?.kind {
    case nil, .repaired?: break
    case .unreadable?: #expect(before == 0, "seed \(seed)")
    default: Issue.record("seed \(seed): \(String(describing: second.storageProblem))")
    }
    if let movedTo = second.storageProblem?.movedTo { #expect(FileManager.default.fileExists(atPath: movedTo)) }
    // The log says so exactly when there is a problem.
    #expect(errors.logged.isEmpty == (second.storageProblem == nil), "seed \(seed): \(errors.logged)")
    errors.check()
    // Either way it keeps working: a new write is queued.
    try await second.transact(.update("todos", .id(InstantID.make()), ["title": "after"]))
    let after = await second.pendingWrites.count
    #expect(after == before + 1, "seed \(seed)")
  }

  @Test("A write-ahead log cut short keeps the writes before the cut; a garbled row loses only itself, and says so")
  func salvage() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    /// Queues `count` writes and leaves `file` as a crash would (see `crashCopy`).
    func queue(_ count: Int, in file: URL) async throws {
      let running = dir.appendingPathComponent("running-" + file.lastPathComponent)
      let client = LocalServer.client(port: 1, storage: .sqlite(running))
      for i in 0..<count { try await client.transact(.update("todos", .id(InstantID.make()), ["title": .string("w\(i)")])) }
      crashCopy(of: running, to: file)
      await client.shutdown()
    }
    // The log cut in half, its index (-shm) left as it was.
    let cut = dir.appendingPathComponent("cut.sqlite")
    try await queue(40, in: cut)
    let wal = URL(fileURLWithPath: cut.path + "-wal")
    let log = try Data(contentsOf: wal)
    try log.prefix(log.count / 2).write(to: wal)
    let afterCut = LocalServer.client(port: 1, storage: .sqlite(cut))
    let keptAfterCut = await afterCut.pendingWrites.count
    #expect(afterCut.storageProblem == nil, "\(String(describing: afterCut.storageProblem))")
    #expect(keptAfterCut > 0 && keptAfterCut < 40, "the writes before the cut are back: \(keptAfterCut)")
    await afterCut.shutdown()

    // One queued write's row no longer parses.
    let garbled = dir.appendingPathComponent("garbled.sqlite")
    try await queue(10, in: garbled)
    let db = try DatabaseQueue(path: garbled.path)
    try await db.write { try $0.execute(sql: "UPDATE mutation SET steps = '[{' WHERE rowid = (SELECT min(rowid) FROM mutation)") }
    try db.close()
    let garbleErrors = ExpectedErrors(["the local database \(garbled.path) was damaged (1 pending writes do not read back; kept 9"])
    let afterGarble = LocalServer.client(port: 1, storage: .sqlite(garbled), logger: garbleErrors.logger)
    #expect(afterGarble.storageProblem?.kind == .repaired)
    #expect(afterGarble.storageProblem?.reason.contains("kept 9 queued writes, dropped 1") == true, "\(String(describing: afterGarble.storageProblem))")
    #expect(await afterGarble.pendingWrites.count == 9)
    await afterGarble.shutdown()
    garbleErrors.check()
  }

  /// Whether `ids` appear in `all` in the same order (some may be missing).
  func isInOrder(_ ids: [String], within all: [String]) -> Bool {
    var rest = all[...]
    for id in ids {
      guard let index = rest.firstIndex(of: id) else { return false }
      rest = rest[(index + 1)...]
    }
    return true
  }

  /// Copies a live client's database files to `copy`: what a crash (or a power cut) would leave,
  /// the recent writes still in the write-ahead log. (A client shut down cleanly checkpoints and
  /// removes its log.)
  func crashCopy(of file: URL, to copy: URL) {
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file.path + suffix) {
      try? FileManager.default.copyItem(atPath: file.path + suffix, toPath: copy.path + suffix)
    }
  }

  @Test("An unreadable local database is moved aside and reported, never reused")
  func unreadableDatabase() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("a.sqlite")
    try Data(repeating: 0x5A, count: 8192).write(to: file)
    let errors = ExpectedErrors(["the local database \(file.path) could not be read"])
    let a = LocalServer.client(port: 1, storage: .sqlite(file), logger: errors.logger)
    defer { Task { await a.shutdown() } }
    errors.check()
    let problem = try #require(a.storageProblem)
    #expect(problem.kind == .unreadable)
    let movedTo = try #require(problem.movedTo)
    #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == Data(repeating: 0x5A, count: 8192))
    // The client still works, on a fresh file.
    try await a.transact(.update("todos", .id(InstantID.make()), ["title": "fresh"]))
    let pendingCount = await a.pendingWrites.count
    #expect(pendingCount == 1)
  }

  @Test("A write that cannot be saved on this device is withdrawn from every query and throws")
  func unsavableWrite() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("a.sqlite")
    try await withServer { server in
      let a = server.client(storage: .sqlite(file))
      defer { Task { await a.shutdown() } }
      let watch = Watcher(a.subscribe(["todos": [:]]))
      try await watch.next { !$0.isFromCache }
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "kept"])).synced()

      // Another connection to the same file makes every new write fail, as a full or broken disk would.
      var patient = Configuration()
      patient.busyMode = .timeout(10)
      let saboteur = try DatabaseQueue(path: file.path, configuration: patient)
      try await saboteur.write {
        try $0.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON mutation BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
      }
      let error = await #expect(throws: InstantClientError.self) {
        try await a.transact(.update("todos", .id(InstantID.make()), ["title": "lost"]))
      }
      #expect(error?.kind == .storage)
      #expect(error?.description.contains("disk says no") == true, "\(String(describing: error))")
      try await saboteur.write { try $0.execute(sql: "DROP TRIGGER refuse") }
      // Offline, no server result can rebuild the query: only the withdrawal keeps "lost" out of
      // the next write's result.
      await a.setNetworkAvailable(false)
      try await a.transact(.update("todos", .id(InstantID.make()), ["title": "after"]))
      try await watch.next { $0.column("todos", "title").contains("after") }
      let unsynced = await a.pendingWrites.filter { $0.state != .synced }
      #expect(unsynced.count == 1, "only the saved offline write is pending: \(unsynced)")
      let titles = try #require(watch.last).column("todos", "title")
      #expect(Set(titles) == ["kept", "after"])
      await a.setNetworkAvailable(true)
      try await watch.next { !$0.hasPendingWrites && Set($0.column("todos", "title")) == ["kept", "after"] }
    }
  }

  @Test("Two clients cannot share one database file")
  func fileInUse() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let storage = InstantStorage.sqlite(dir.appendingPathComponent("a.sqlite"))
    let first = LocalServer.client(port: 1, storage: storage)
    let errors = ExpectedErrors(["is in use by another client"])
    let second = LocalServer.client(port: 1, storage: storage, logger: errors.logger)
    #expect(first.storageProblem == nil)
    #expect(second.storageProblem?.kind == .inUse)
    errors.check()
    await first.shutdown()
    await second.shutdown()
    let third = LocalServer.client(port: 1, storage: storage)
    #expect(third.storageProblem == nil, "shutdown releases the file")
    await third.shutdown()
  }
}

/// docs/protocol.md, "Re-sent writes": the server does not deduplicate re-sent transactions.
@Suite("Re-sends", .timeLimit(.minutes(10)))
struct ResendTests {
  @Test("A create whose transact-ok was lost is re-sent and succeeds instead of being refused as a duplicate")
  func lostTransactOK() async throws {
    try await withServer { server in
      let transport = InjectingTransport()
      let a = server.client(transport: transport)
      let b = server.client()
      defer { Task { await a.shutdown(); await b.shutdown() } }
      let watchB = Watcher(b.subscribe(["todos": [:]]))
      try await eventually("A connects") { await a.status == .authenticated }

      transport.dropIncoming.withLock { $0 = { $0.contains("\"transact-ok\"") } }
      let id = InstantID.make()
      let receipt = try await a.transact(.create("todos", .id(id), ["title": "once"]))
      try await watchB.next { $0.column("todos", "title") == ["once"] }  // committed on the server
      try await eventually("the transact-ok is lost") { transport.dropped.withLock { !$0.isEmpty } }
      transport.dropIncoming.withLock { $0 = { _ in false } }
      await a.reconnectNow()

      let txID = try await receipt.synced()
      #expect(txID > 0)
      let resent = transport.sent.filter { $0.contains(id) && $0.contains("\"transact\"") }
      #expect(resent.count == 2, "sent, then re-sent after the reconnect")
      #expect(resent.first?.contains("\"create\"") == true)
      #expect(resent.last?.contains("\"create\"") == false, "the re-send drops the create mode")
      try await watchB.next { $0.column("todos", "title") == ["once"] }
    }
  }
}
