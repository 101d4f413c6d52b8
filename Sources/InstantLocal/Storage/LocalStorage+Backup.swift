import Foundation
import GRDB
import InstantCore

/// What backups read and restores write.
extension LocalStorage {
  /// Where a data file keeps an app's `$files` blobs: `<data file>.files/<app id>/`.
  static func blobDirectory(dataFile: String, appID: String) -> URL {
    URL(fileURLWithPath: dataFile + ".files", isDirectory: true).appendingPathComponent(appID, isDirectory: true)
  }

  /// One app as it was at one moment: read in a single transaction on a connection of its own, so
  /// the copy is consistent while writes go on, and (SQLite in WAL mode) writers are not held up
  /// by it. `whileReading` runs inside that transaction (a seam for tests). In memory there is
  /// no second connection: the read takes its turn on the one queue.
  func snapshot(_ appID: String, whileReading: (() -> Void)? = nil) throws(InstantLocalError) -> AppSnapshot? {
    do {
      let reader: DatabaseQueue
      if let path {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(5)
        reader = try DatabaseQueue(path: path, configuration: config)
      } else {
        reader = queue
      }
      return try reader.read { db in
        let snapshot = try Self.readApp(db, appID)
        whileReading?()
        return snapshot
      }
    } catch {
      throw .storage("cannot read app \(appID) for a backup: \(Self.sentence(error))")
    }
  }

  /// Writes a restored app in one transaction: its row (with a new admin token), attrs, triples
  /// and rules. Refuses an app id that exists already; on any failure nothing is written.
  func restoreApp(
    _ appID: String, title: String, adminTokenSHA256: String, attrs: [Attr], triples: [Triple], rules: JSON?, now: Double
  ) throws(InstantLocalError) {
    try run("restore app \(appID)") { db in
      if try Bool.fetchOne(db, sql: "SELECT 1 FROM apps WHERE id = ?", arguments: [appID]) == true {
        throw InstantLocalError.invalidApp(
          "app \(appID) exists in this data file already; restore into a new app id (--app) or another data file")
      }
      try db.execute(
        sql: "INSERT INTO apps (id, title, created_at, admin_token_sha256) VALUES (?, ?, ?, ?)",
        arguments: [appID, title, now, adminTokenSHA256])
      let attr = try db.cachedStatement(sql: "INSERT INTO attrs (app_id, id, json) VALUES (?, ?, ?)")
      for a in attrs where !SystemCatalog.isSystemAttr(a.id) {
        try attr.execute(arguments: [appID, a.id, JSON.object(a.json).serialized()])
      }
      let insert = try db.cachedStatement(
        sql: "INSERT OR REPLACE INTO triples (app_id, entity, attr, value, created_at) VALUES (?, ?, ?, ?, ?)")
      for t in triples {
        try insert.execute(arguments: [appID, t.entity, t.attr, t.value.canonicalString, t.createdAt])
      }
      if let rules {
        try db.execute(
          sql: "INSERT INTO rules (app_id, code, version) VALUES (?, ?, 1)", arguments: [appID, rules.serialized()])
      }
    }
  }
}
