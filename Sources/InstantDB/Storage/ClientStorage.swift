import Foundation
import GRDB
import InstantCore

import Logging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The client's SQLite database: one row per pending write (an enqueue is one INSERT, whatever
/// the backlog), the cached results of recent queries, and the attrs.
final class ClientStorage: Sendable {
  let db: DatabaseQueue
  /// The lock file descriptor that keeps a second client off the same file (-1 in memory).
  let lockFD: Int32
  let problem: StorageProblem?

  private init(db: DatabaseQueue, lockFD: Int32, problem: StorageProblem?) {
    self.db = db
    self.lockFD = lockFD
    self.problem = problem
  }

  deinit {
    if lockFD >= 0 { close(lockFD) }
  }

  /// What a database held when it was opened.
  struct Saved {
    var attrs: JSON?
    var mutations: [PendingMutation] = []
    var queries: [String: CachedQuery] = [:]
  }

  /// Opens `storage` and reads what it holds. Never fails: a file that cannot be used is reported
  /// in ``problem`` and the client falls back to memory (or to a fresh file, when the old one was
  /// unreadable).
  static func make(_ storage: InstantStorage, copy: (String, String) throws -> Void = copyFile) -> (ClientStorage, Saved) {
    guard case let .sqlite(url) = storage else { return memory(problem: nil) }
    let path = url.path
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      return memory(problem: StorageProblem(kind: .unavailable, path: path, reason: "\(error)", underlying: error))
    }
    let fd = open(path + ".lock", O_CREAT | O_RDWR, 0o600)
    guard fd >= 0 else {
      return memory(problem: StorageProblem(kind: .unavailable, path: path, reason: String(cString: strerror(errno))))
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      return memory(problem: StorageProblem(kind: .inUse, path: path, reason: "locked"))
    }
    do {
      // Every row is read here, once: a file that opens but holds garbage is caught at start.
      // The probe does not own the lock's descriptor: if reading fails, its deinit must not close
      // it, or the storage made below would close it a second time — by then perhaps a socket's.
      let probe = ClientStorage(db: try openFile(path), lockFD: -1, problem: nil)
      let saved = try probe.load()
      return (ClientStorage(db: probe.db, lockFD: fd, problem: nil), saved)
    } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {
      // Busy is not broken: some other process holds the file longer than `busyTimeout`. It is
      // left alone, and this client keeps its state in memory.
      close(fd)
      return memory(problem: StorageProblem(kind: .inUse, path: path, reason: "\(error)", underlying: error))
    } catch {
      // Damaged. A copy goes aside first, for inspection; then what can still be read is kept
      // (``salvage(_:)``); only if nothing can be is the client started clean.
      let aside = path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
      do {
        try copyAside(path, to: aside, copy: copy)
      } catch let copyError {
        // Without a verified copy nothing is changed: the file may hold the only copy of queued
        // writes. It stays as it is, and this client keeps its state in memory.
        close(fd)
        let reason = "\(error); left as it is, since no copy of it could be made (\(copyError))"
        return memory(problem: StorageProblem(kind: .unavailable, path: path, reason: reason, underlying: copyError))
      }
      if let (db, saved, dropped) = salvage(path) {
        let reason = "\(error); kept \(saved.mutations.count) queued writes, dropped \(dropped) unreadable rows"
        let problem = StorageProblem(kind: .repaired, path: path, movedTo: aside, reason: reason, underlying: error)
        return (ClientStorage(db: db, lockFD: fd, problem: problem), saved)
      }
      // The copy aside is verified, so removing the originals loses nothing; one that cannot be
      // removed is reported by opening the fresh file below.
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      let problem = StorageProblem(kind: .unreadable, path: path, movedTo: aside, reason: "\(error)", underlying: error)
      do {
        return (ClientStorage(db: try openFile(path), lockFD: fd, problem: problem), Saved())
      } catch {
        close(fd)
        return memory(problem: StorageProblem(kind: .unavailable, path: path, reason: "\(error)", underlying: error))
      }
    }
  }

  /// What a damaged file still holds: its queued writes that read back, in order (rows that do
  /// not are dropped and counted), its attrs and cached results if they read back (they are
  /// only a cache). First as it is; then without its `-shm`, the write-ahead log's index, which
  /// SQLite then rebuilds from the log's checksummed frames, keeping the log up to its last intact
  /// commit (a log cut short with its index still in place fails to open). The caller holds the
  /// file's lock, so no other connection uses that index. `nil` when neither works.
  private static func salvage(_ path: String) -> (DatabaseQueue, Saved, dropped: Int)? {
    for attempt in 0..<2 {
      // The -shm file is only an index SQLite rebuilds from the log; a copy of it is aside.
      if attempt == 1 { try? FileManager.default.removeItem(atPath: path + "-shm") }
      // Failing to open or check is the damage already reported by the caller.
      guard let db = try? openFile(path) else { continue }
      let probe = ClientStorage(db: db, lockFD: -1, problem: nil)
      guard (try? db.read({ try String.fetchOne($0, sql: "PRAGMA quick_check") })) == "ok",
        let (mutations, dropped) = try? probe.loadReadableMutations()
      else { continue }
      var saved = Saved(mutations: mutations)
      // Attrs and cached results are only a cache, refetched from the server: one that does not read
      // back is cleared (and if clearing fails, it is found damaged again at the next start).
      if let attrs = try? probe.loadAttrs() { saved.attrs = attrs } else { try? db.write { try $0.execute(sql: "DELETE FROM kv") } }
      if let queries = try? probe.loadQueries() { saved.queries = queries } else { try? db.write { try $0.execute(sql: "DELETE FROM query") } }
      return (db, saved, dropped)
    }
    return nil
  }
  /// Copies the database and its `-wal` and `-shm` files to `aside`, then checks each copy has the
  /// original's size; throws (and removes what it copied) if any copy fails.
  static func copyAside(_ path: String, to aside: String, copy: (String, String) throws -> Void) throws {
    let files = FileManager.default
    var copied: [String] = []
    do {
      for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
        try copy(path + suffix, aside + suffix)
        copied.append(aside + suffix)
        let size = { (file: String) in try files.attributesOfItem(atPath: file)[.size] as? Int }
        guard try size(path + suffix) == size(aside + suffix) else {
          throw StorageCopyError(file: path + suffix)
        }
      }
    } catch {
      // Partial copies are only copies; the originals are untouched.
      for file in copied { try? files.removeItem(atPath: file) }
      throw error
    }
  }

  static func copyFile(_ from: String, _ to: String) throws {
    try FileManager.default.copyItem(atPath: from, toPath: to)
  }

  private static func memory(problem: StorageProblem?) -> (ClientStorage, Saved) {
    // An in-memory database cannot fail to open or migrate.
    let db = try! DatabaseQueue()
    try! migrate(db)
    return (ClientStorage(db: db, lockFD: -1, problem: problem), Saved())
  }

  /// How long opening the file waits for another connection's lock, in seconds.
  static let busyTimeout: TimeInterval = 5

  private static func openFile(_ path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    // A lock held by another connection (a save finishing in a client that is shutting down, a
    // tool reading the file) is waited for rather than failing the open.
    configuration.busyMode = .timeout(busyTimeout)
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    let db = try DatabaseQueue(path: path, configuration: configuration)
    try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
    try migrate(db)
    return db
  }

  private static func migrate(_ db: DatabaseQueue) throws {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE mutation (id TEXT PRIMARY KEY, ord INTEGER NOT NULL, created REAL NOT NULL,
            steps TEXT NOT NULL, tx_id INTEGER, sent INTEGER NOT NULL DEFAULT 0);
          CREATE TABLE query (key TEXT PRIMARY KEY, q TEXT NOT NULL, triples TEXT NOT NULL,
            page_info TEXT, processed_tx_id INTEGER, used REAL NOT NULL);
          CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          """)
    }
    try migrator.migrate(db)
  }

  /// Checks the file and reads everything in it; throws if any of it cannot be read.
  private func load() throws -> Saved {
    try db.read { db in
      let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "?"
      guard check == "ok" else { throw StorageReadError("quick_check: \(check)") }
    }
    return Saved(attrs: try loadAttrs(), mutations: try loadMutations(), queries: try loadQueries())
  }

  // MARK: Pending writes

  func insert(_ m: PendingMutation) throws {
    let steps = JSON.array(m.steps).serialized()
    try db.write { db in
      try db.cachedStatement(sql: "INSERT INTO mutation (id, ord, created, steps, tx_id, sent) VALUES (?, ?, ?, ?, ?, ?)")
        .execute(arguments: [m.id, m.order, m.created, steps, m.txID, m.wasSent])
    }
  }

  /// Queued (``later(_:_:_:)``): the write is acknowledged as `txID`.
  func confirm(_ id: String, txID: Int, logger: Logger) {
    later("record an acknowledged write", logger) {
      try $0.execute(sql: "UPDATE mutation SET tx_id = ? WHERE id = ?", arguments: [txID, id])
    }
  }

  /// Records that these writes are about to be sent (before they are).
  func markSent(_ ids: [String]) throws {
    guard !ids.isEmpty else { return }
    try db.write { db in
      for id in ids { try db.execute(sql: "UPDATE mutation SET sent = 1 WHERE id = ?", arguments: [id]) }
    }
  }

  /// Queued (``later(_:_:_:)``): these writes' steps were rewritten to the server's attr ids.
  func replaceSteps(_ changed: [PendingMutation], logger: Logger) {
    guard !changed.isEmpty else { return }
    let rows = changed.map { ($0.id, $0.steps) }
    later("save rewritten writes", logger) { db in
      for (id, steps) in rows {
        try db.execute(sql: "UPDATE mutation SET steps = ? WHERE id = ?", arguments: [JSON.array(steps).serialized(), id])
      }
    }
  }

  /// Queued (``later(_:_:_:)``): these writes left the queue (finished, refused, or the user changed).
  func delete(_ ids: [String], logger: Logger) {
    guard !ids.isEmpty else { return }
    later("delete finished writes", logger) { db in
      for id in ids { try db.execute(sql: "DELETE FROM mutation WHERE id = ?", arguments: [id]) }
    }
  }

  /// Queues `work` behind every write asked for before it and returns at once; a failure is
  /// logged as "could not `what`". The reactor's bookkeeping (a write acknowledged, rewritten or
  /// dropped, the attrs, the cache cleared) goes this way, so the actor that takes every server
  /// message never waits on the disk for it. One queue serves every write, waited for or not, so
  /// the file changes in the order of the calls; ``closeDatabase()`` runs after all of them.
  ///
  /// What is not queued: a new write's row (``insert(_:)``, saved before `transact` returns) and
  /// ``markSent(_:)`` (on disk before the frame goes), which are promises to the caller.
  func later(_ what: String, _ logger: Logger, _ work: @escaping @Sendable (Database) throws -> Void) {
    db.asyncWrite(work) { _, result in
      if case let .failure(error) = result { logger.error("could not \(what): \(error)") }
    }
  }

  /// The queued writes, in order; throws at the first row that does not read back.
  func loadMutations() throws -> [PendingMutation] {
    let (kept, unreadable) = try readMutations()
    guard unreadable.isEmpty else { throw StorageReadError("\(unreadable.count) pending writes do not read back") }
    return kept
  }

  /// The queued writes that read back, deleting the rows that do not; how many were dropped.
  fileprivate func loadReadableMutations() throws -> ([PendingMutation], dropped: Int) {
    let (kept, unreadable) = try readMutations()
    try db.write { db in
      for rowid in unreadable { try db.execute(sql: "DELETE FROM mutation WHERE rowid = ?", arguments: [rowid]) }
    }
    return (kept, unreadable.count)
  }

  /// Every queued write that reads back, in order, and the rowids of those that do not. No
  /// column's type is trusted: a damaged row is reported, never a trap.
  private func readMutations() throws -> ([PendingMutation], unreadable: [DatabaseValue]) {
    try db.read { db in
      var kept: [PendingMutation] = []
      var unreadable: [DatabaseValue] = []
      for row in try Row.fetchAll(db, sql: "SELECT rowid, id, ord, created, steps, tx_id, sent FROM mutation ORDER BY ord, id") {
        func column<T: DatabaseValueConvertible>(_ name: String) -> T? { T.fromDatabaseValue(row[name] as DatabaseValue) }
        if let id: String = column("id"), let order: Int = column("ord"), let created: Double = column("created"),
          // Steps that do not parse make the row unreadable: counted and reported, never skipped quietly.
          let text: String = column("steps"), case let .array(steps)? = try? JSON.parse(text)
        {
          let sent: Bool = column("sent") ?? false
          kept.append(PendingMutation(id: id, order: order, created: created, steps: steps, txID: column("tx_id"), wasSent: sent))
        } else {
          unreadable.append(row["rowid"] as DatabaseValue)
        }
      }
      return (kept, unreadable)
    }
  }

  // MARK: Attrs

  /// Queued (``later(_:_:_:)``), and serialized there: the server's attr table.
  func saveAttrs(_ attrs: JSON, logger: Logger) {
    later("save attrs", logger) { db in
      try db.execute(sql: "INSERT OR REPLACE INTO kv (key, value) VALUES ('attrs', ?)", arguments: [attrs.serialized()])
    }
  }

  func loadAttrs() throws -> JSON? {
    try db.read { db in
      try String.fetchOne(db, sql: "SELECT value FROM kv WHERE key = 'attrs'").map { try JSON.parse($0) }
    }
  }

  // MARK: Cached query results

  struct CachedQuery {
    var q: JSON
    var pageInfo: JSON?
    var processedTxID: Int?
    private var source: Source

    /// Where the triples come from: rows as read or received, or a query's server store, turned
    /// into rows only when saved (a result kept current by changes is not re-listed per change).
    private enum Source {
      case rows([JSON])
      case store(TripleStore, unindexed: [Triple])
    }

    init(q: JSON, triples: [JSON], pageInfo: JSON? = nil, processedTxID: Int?) {
      self.q = q
      self.pageInfo = pageInfo
      self.processedTxID = processedTxID
      source = .rows(triples)
    }

    init(q: JSON, store: TripleStore, unindexed: [Triple], pageInfo: JSON?, processedTxID: Int?) {
      self.q = q
      self.pageInfo = pageInfo
      self.processedTxID = processedTxID
      source = .store(store, unindexed: unindexed)
    }

    /// The server's triples, as wire rows.
    var triples: [JSON] {
      switch source {
      case let .rows(rows): rows
      case let .store(store, unindexed): (store.triples + unindexed).map(\.json)
      }
    }
  }

  /// Saves a query's server result and keeps only the `limit` most recently used.
  func saveQuery(key: String, _ cached: CachedQuery, limit: Int, usedAt: Date) throws {
    try db.write { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO query (key, q, triples, page_info, processed_tx_id, used)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          key, cached.q.serialized(), JSON.array(cached.triples).serialized(), cached.pageInfo?.serialized(),
          cached.processedTxID, usedAt.timeIntervalSince1970,
        ])
      try db.execute(
        sql: "DELETE FROM query WHERE key NOT IN (SELECT key FROM query ORDER BY used DESC, rowid DESC LIMIT ?)",
        arguments: [limit])
    }
  }

  func loadQueries() throws -> [String: CachedQuery] {
    try db.read { db in
      var out: [String: CachedQuery] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT key, q, triples, page_info, processed_tx_id FROM query") {
        let triplesText: String = row["triples"]
        guard case let .array(triples) = try JSON.parse(triplesText) else { throw StorageReadError("a cached result is not an array") }
        let pageText: String? = row["page_info"]
        out[row["key"]] = CachedQuery(
          q: try JSON.parse(row["q"] as String), triples: triples, pageInfo: try pageText.map { try JSON.parse($0) },
          processedTxID: row["processed_tx_id"])
      }
      return out
    }
  }
}

struct StorageReadError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension ClientStorage {
  /// Lets another client open the file (called on shutdown).
  func releaseLock() {
    if lockFD >= 0 { flock(lockFD, LOCK_UN) }
  }

  /// Closes the database (on shutdown, before the lock is released), so the next client — in
  /// this process too — opens the file afresh; later reads and writes throw instead of touching it.
  func closeDatabase() {
    guard lockFD >= 0 else { return }
    do { try db.close() } catch { ClientLog.make().error("could not close the local database: \(error)") }
  }
}

/// A copy of a damaged database file that does not match the original.
struct StorageCopyError: Error, CustomStringConvertible {
  var file: String
  var description: String { "the copy of \(file) is not the same size as the file" }
}
