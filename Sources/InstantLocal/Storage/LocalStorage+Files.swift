import Foundation
import GRDB
import InstantCore

/// What `$files` storage keeps in the data file (docs/files.md): the secret that signs file URLs,
/// and the blobs waiting to be swept.
///
/// The tables are made with `IF NOT EXISTS` when a server opens the file (``prepareFiles()``), so
/// a data file from before storage gains them on its next start.
extension LocalStorage {
  /// Makes the tables and the trigger if missing: `secrets` (name → value), and
  /// `files_to_sweep`, which a trigger fills, as the reference's `app_files_to_sweep`, with every
  /// `$files.location-id` triple deleted (a file deleted, or replaced by an upload), whatever
  /// deleted it.
  func prepareFiles() throws(InstantLocalError) {
    try run("prepare the $files tables") { db in
      try db.execute(
        sql: """
          CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
          CREATE TABLE IF NOT EXISTS files_to_sweep (
            app_id TEXT NOT NULL, location_value TEXT NOT NULL, queued_at REAL NOT NULL
          );
          CREATE TRIGGER IF NOT EXISTS files_to_sweep_on_delete AFTER DELETE ON triples
          WHEN OLD.attr = '\(LocalFiles.locationIDAttr)'
          BEGIN
            INSERT INTO files_to_sweep (app_id, location_value, queued_at)
            VALUES (OLD.app_id, OLD.value, (julianday('now') - 2440587.5) * 86400000.0);
          END;
          """)
    }
  }

  /// The secret named `name`: 32 random bytes, made and stored the first time it is asked for,
  /// the same ever after for this data file.
  func secret(named name: String) throws(InstantLocalError) -> Data {
    try run("read the \(name) secret") { db in
      if let hex = try String.fetchOne(db, sql: "SELECT value FROM secrets WHERE name = ?", arguments: [name]),
        let bytes = Data(hex: hex), bytes.count == 32
      {
        return bytes
      }
      var generator = SystemRandomNumberGenerator()
      let bytes = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
      try db.execute(
        sql: "INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)", arguments: [name, bytes.hexString])
      return bytes
    }
  }

  /// Queues a blob for the sweep at `time` (epoch ms): an upload's blob, before its row is
  /// committed, so a crash in between leaves nothing behind for good.
  func queueFileSweep(appID: String, locationID: String, at time: Double) throws(InstantLocalError) {
    try run("queue a file for the sweep") { db in
      try db.execute(
        sql: "INSERT INTO files_to_sweep (app_id, location_value, queued_at) VALUES (?, ?, ?)",
        arguments: [appID, JSON.string(locationID).canonicalString, time])
    }
  }

  /// One queued blob.
  struct QueuedSweep: Sendable {
    var rowID: Int64
    var appID: String
    /// `nil` when the stored value is not a string (nothing to delete).
    var locationID: String?
    /// Whether a `$files` row still (or again) names this location: the blob stays.
    var isLive: Bool
  }

  /// The queued blobs queued at or before `time` (epoch ms), oldest first, at most `limit`.
  func dueFileSweeps(queuedBefore time: Double, limit: Int = 1000) throws(InstantLocalError) -> [QueuedSweep] {
    try run("read the files to sweep") { db in
      let rows = try Row.fetchAll(
        db,
        sql: "SELECT rowid, app_id, location_value FROM files_to_sweep WHERE queued_at <= ? ORDER BY queued_at LIMIT ?",
        arguments: [time, limit])
      return try rows.map { row in
        let value: String = row[2]
        let live =
          try Bool.fetchOne(
            db, sql: "SELECT 1 FROM triples WHERE app_id = ? AND attr = ? AND value = ? LIMIT 1",
            arguments: [row[1] as String, LocalFiles.locationIDAttr, value]) ?? false
        return QueuedSweep(
          rowID: row[0], appID: row[1], locationID: (try? JSON.parse(value))?.stringValue, isLive: live)
      }
    }
  }

  /// Forgets swept (or live) entries.
  func finishFileSweeps(_ rowIDs: [Int64]) throws(InstantLocalError) {
    guard !rowIDs.isEmpty else { return }
    try run("forget swept files") { db in
      for id in rowIDs { try db.execute(sql: "DELETE FROM files_to_sweep WHERE rowid = ?", arguments: [id]) }
    }
  }
}
