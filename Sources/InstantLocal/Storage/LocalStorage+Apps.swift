public import Foundation
import GRDB
import InstantCore

/// The apps table: titles, admin tokens (by their SHA-256 only) and each app's rules.
extension LocalStorage {
  /// Registers a new app with an admin token.
  func createApp(id: String, title: String, adminTokenSHA256: String, now: Double) throws(InstantLocalError) {
    try run("create app \(id)") { db in
      try db.execute(
        sql: "INSERT INTO apps (id, title, created_at, admin_token_sha256) VALUES (?, ?, ?, ?)",
        arguments: [id, title, now, adminTokenSHA256])
    }
  }

  /// Every app, oldest first.
  func apps() throws(InstantLocalError) -> [AppRecord] {
    try run("list the apps") { db in
      try Row.fetchAll(db, sql: "SELECT id, title, created_at, admin_token_sha256 FROM apps ORDER BY created_at, id")
        .map(Self.record)
    }
  }

  /// The app with this id, if it exists.
  func app(_ id: String) throws(InstantLocalError) -> AppRecord? {
    try run("read app \(id)") { db in
      try Row.fetchOne(db, sql: "SELECT id, title, created_at, admin_token_sha256 FROM apps WHERE id = ?", arguments: [id])
        .map(Self.record)
    }
  }

  /// The SHA-256 of the app's admin token: `nil` when the app does not exist, `.some(nil)` when
  /// it has no token (an app made on first use in development).
  func adminTokenSHA256(_ appID: String) throws(InstantLocalError) -> String?? {
    try run("read the admin token of app \(appID)") { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT admin_token_sha256 FROM apps WHERE id = ?", arguments: [appID])
      else { return nil }
      return .some(row[0] as String?)
    }
  }

  /// The app whose admin token has this SHA-256, if any.
  func appID(withAdminTokenSHA256 hash: String) throws(InstantLocalError) -> String? {
    try run("find an admin token's app") { db in
      try String.fetchOne(db, sql: "SELECT id FROM apps WHERE admin_token_sha256 = ?", arguments: [hash])
    }
  }

  /// Replaces the app's admin token; false when there is no such app.
  func setAdminToken(_ appID: String, sha256: String) throws(InstantLocalError) -> Bool {
    try run("set the admin token of app \(appID)") { db in
      try db.execute(sql: "UPDATE apps SET admin_token_sha256 = ? WHERE id = ?", arguments: [sha256, appID])
      return db.changesCount > 0
    }
  }

  /// The app's stored rules.
  func rules(_ appID: String) throws(InstantLocalError) -> JSON? {
    try run("read the rules of app \(appID)") { db in
      try String.fetchOne(db, sql: "SELECT code FROM rules WHERE app_id = ?", arguments: [appID]).map { try JSON.parse($0) }
    }
  }

  /// Stores the app's rules (`nil` removes them) and returns their version: bumped only when the
  /// code changed, as the reference's `rules` table does.
  func saveRules(_ appID: String, code: JSON?) throws(InstantLocalError) -> Int {
    try run("save the rules of app \(appID)") { db in
      let current = try Row.fetchOne(db, sql: "SELECT code, version FROM rules WHERE app_id = ?", arguments: [appID])
      let version: Int = current?[1] ?? 0
      guard let code else {
        try db.execute(sql: "DELETE FROM rules WHERE app_id = ?", arguments: [appID])
        return version
      }
      if let current, try JSON.parse(current[0] as String) == code { return version }
      try db.execute(
        sql: "INSERT OR REPLACE INTO rules (app_id, code, version) VALUES (?, ?, ?)",
        arguments: [appID, code.serialized(), version + 1])
      return version + 1
    }
  }

  private static func record(_ row: Row) -> AppRecord {
    AppRecord(
      id: row[0], title: row[1], createdAt: Date(timeIntervalSince1970: (row[2] as Double) / 1000),
      hasAdminToken: (row[3] as String?) != nil)
  }
}

/// An app as `instant-local apps list` shows it.
public struct AppRecord: Sendable, Equatable {
  public var id: String
  public var title: String
  public var createdAt: Date
  /// Whether the app has an admin token (apps made on first use in development have none until
  /// `instant-local apps rotate-token` gives them one).
  public var hasAdminToken: Bool
}
