import Foundation
import GRDB
import InstantCore
import Logging

/// GRDB's connection type, named apart from anything else called `Database`.
typealias GRDBDatabase = GRDB.Database

/// The server's durable state in one SQLite file (or in memory): apps, their attrs and triples,
/// the global transaction counter and refresh tokens.
///
/// Every write is one SQLite transaction in WAL mode with `synchronous = NORMAL`: once a write
/// returns, it is in the WAL, so it survives the process being killed (`kill -9`); only a power
/// loss can drop the last transactions. The server replies to a client only after the write
/// returned. Checkpoints run in the background (``WALCheckpointer``), off the write path.
final class LocalStorage: Sendable {
  let queue: DatabaseQueue
  /// The data file, `nil` in memory.
  let path: String?
  private let checkpointer: WALCheckpointer?

  /// Opens (creating if needed) the database at `path`, or an in-memory one when `path` is nil.
  init(path: String?, logger: Logger) throws(InstantLocalError) {
    self.path = path
    do {
      var config = Configuration()
      config.journalMode = .wal
      config.busyMode = .timeout(5)
      config.prepareDatabase { db in
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
      }
      if let path {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        queue = try DatabaseQueue(path: path, configuration: config)
        try Self.migrate(queue)
        checkpointer = try WALCheckpointer(path: path, logger: logger)
      } else {
        var memory = Configuration()
        memory.journalMode = .default
        queue = try DatabaseQueue(configuration: memory)
        checkpointer = nil
        try Self.migrate(queue)
      }
    } catch let error as InstantLocalError {
      throw error
    } catch {
      throw .storage(
        "cannot open the database at \(path ?? ":memory:"): \(Self.sentence(error)). Check the path is writable, or pass --memory.")
    }
  }

  /// `error` in one sentence: the operating system's words for a file error (Foundation's
  /// `NSError` description is a dump of its user info), SQLite's message for a database error.
  static func sentence(_ error: any Error) -> String {
    if let database = error as? DatabaseError { return database.message ?? database.description }
    let ns = error as NSError
    for candidate in [ns, ns.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(candidate.code)))
    }
    let words = ns.localizedDescription.replacingOccurrences(of: "The operation could not be completed. ", with: "")
    if let path = ns.userInfo[NSFilePathErrorKey] as? String { return "\(path): \(words)" }
    return words
  }

  private static func migrate(_ queue: DatabaseQueue) throws {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE apps (id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at REAL NOT NULL);
          CREATE TABLE attrs (app_id TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (app_id, id));
          CREATE TABLE triples (
            app_id TEXT NOT NULL, entity TEXT NOT NULL, attr TEXT NOT NULL, value TEXT NOT NULL, created_at REAL
          );
          CREATE UNIQUE INDEX triples_eav ON triples (app_id, entity, attr, value);
          CREATE INDEX triples_app_attr ON triples (app_id, attr);
          CREATE TABLE transactions (id INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, created_at REAL NOT NULL);
          CREATE TABLE refresh_tokens (
            token TEXT PRIMARY KEY, app_id TEXT NOT NULL, user_id TEXT NOT NULL, created_at REAL NOT NULL
          );
          """)
    }
    // Apps made with `instant-local apps create` have an admin token (only its SHA-256 is kept);
    // each app's permission rules, pushed over the admin API or restored from a backup.
    migrator.registerMigration("v2 apps: admin tokens and rules") { db in
      try db.execute(
        sql: """
          ALTER TABLE apps ADD COLUMN admin_token_sha256 TEXT;
          CREATE TABLE rules (app_id TEXT PRIMARY KEY, code TEXT NOT NULL, version INTEGER NOT NULL);
          """)
    }
    // Refresh tokens are kept as their SHA-256 only, as the reference keeps them (and as admin
    // tokens are): a copy of the data file no longer lets anyone sign in as its users.
    migrator.registerMigration("v3 refresh tokens hashed") { db in
      let tokens = try String.fetchAll(db, sql: "SELECT token FROM refresh_tokens")
      for token in tokens where !RefreshTokenHash.isHash(token) {
        try db.execute(
          sql: "UPDATE refresh_tokens SET token = ? WHERE token = ?", arguments: [RefreshTokenHash.of(token), token])
      }
    }
    // Each app's OAuth clients: the names apps sign in with an ID token through (docs/instant-local.md).
    migrator.registerMigration("v4 oauth clients") { db in
      try db.execute(
        sql: """
          CREATE TABLE oauth_clients (
            app_id TEXT NOT NULL, name TEXT NOT NULL, provider TEXT NOT NULL, client_id TEXT NOT NULL,
            discovery_endpoint TEXT NOT NULL, audiences TEXT NOT NULL, PRIMARY KEY (app_id, name)
          );
          """)
    }
    // Each app's magic-code email (docs/instant-local.md, "Magic codes by email").
    migrator.registerMigration("v5 email templates") { db in
      try db.execute(
        sql: """
          CREATE TABLE email_templates (
            app_id TEXT PRIMARY KEY, subject TEXT NOT NULL, body TEXT NOT NULL, sender_email TEXT, sender_name TEXT
          );
          """)
    }
    // The OAuth web flow: each client's secret, and the addresses an app's sign-in may return to.
    migrator.registerMigration("v6 oauth web flow") { db in
      try db.execute(
        sql: """
          ALTER TABLE oauth_clients ADD COLUMN client_secret TEXT;
          ALTER TABLE oauth_clients ADD COLUMN apple_team_id TEXT;
          ALTER TABLE oauth_clients ADD COLUMN apple_key_id TEXT;
          CREATE TABLE redirect_origins (
            app_id TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (app_id, kind, value)
          );
          """)
    }
    // The admin API's OAuth providers (docs/admin.md, "Sign-in settings"): a provider made before
    // its clients, and the provider an OpenID Connect client belongs to.
    migrator.registerMigration("v7 oauth providers") { db in
      try db.execute(
        sql: """
          ALTER TABLE oauth_clients ADD COLUMN provider_name TEXT;
          CREATE TABLE oauth_providers (app_id TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (app_id, name));
          """)
    }
    let hashing = try queue.read { db in
      try !migrator.appliedIdentifiers(db).contains("v3 refresh tokens hashed")
        && (try db.tableExists("refresh_tokens")) && (try Int.fetchOne(db, sql: "SELECT count(*) FROM refresh_tokens") ?? 0) > 0
    }
    try migrator.migrate(queue)
    if hashing {
      // The plain tokens the update replaced still sit in freed pages and in the WAL: rewrite
      // the file without them.
      _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
      try queue.vacuum()
      _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }
  }

  /// What the server needs to serve an app: its stored attrs, triples in insertion order, and
  /// refresh tokens.
  struct AppSnapshot: Sendable {
    var title: String
    var attrs: [Attr]
    var triples: [Triple]
    var refreshTokens: [String: String]
    /// The app's own permission rules (pushed or restored), `nil` when it has none.
    var rules: JSON?
  }

  /// The highest tx-id ever assigned (0 before the first transaction).
  func lastTxID() throws(InstantLocalError) -> Int {
    try run("read the transaction counter") { db in
      try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'transactions'") ?? 0
    }
  }

  /// Loads an app, registering it on first use when `creating` (any well-formed id is
  /// accepted); `nil` when it does not exist and may not be created.
  func loadApp(_ appID: String, creating: Bool = true, now: Double) throws(InstantLocalError) -> AppSnapshot? {
    try run("load app \(appID)") { db in
      if creating {
        try db.execute(
          sql: "INSERT OR IGNORE INTO apps (id, title, created_at) VALUES (?, ?, ?)",
          arguments: [appID, "instant-local \(appID)", now])
      }
      return try Self.readApp(db, appID)
    }
  }

  /// Everything stored about one app, read in the caller's transaction.
  static func readApp(_ db: Database, _ appID: String) throws -> AppSnapshot? {
    guard let title = try String.fetchOne(db, sql: "SELECT title FROM apps WHERE id = ?", arguments: [appID]) else {
      return nil
    }
    var attrs: [Attr] = []
    for text in try String.fetchAll(db, sql: "SELECT json FROM attrs WHERE app_id = ? ORDER BY rowid", arguments: [appID]) {
      attrs.append(try Attr(json: try JSON.parse(text)))
    }
    var triples: [Triple] = []
    let rows = try Row.fetchCursor(
      db, sql: "SELECT entity, attr, value, created_at FROM triples WHERE app_id = ? ORDER BY rowid", arguments: [appID])
    while let row = try rows.next() {
      let value = try JSON.parse(row[2] as String)
      triples.append(Triple(row[0], row[1], value, row[3] as Double?))
    }
    var tokens: [String: String] = [:]  // hash → user id
    for row in try Row.fetchAll(db, sql: "SELECT token, user_id FROM refresh_tokens WHERE app_id = ?", arguments: [appID]) {
      tokens[row[0]] = row[1]
    }
    let rules = try String.fetchOne(db, sql: "SELECT code FROM rules WHERE app_id = ?", arguments: [appID])
      .map { try JSON.parse($0) }
    return AppSnapshot(title: title, attrs: attrs, triples: triples, refreshTokens: tokens, rules: rules)
  }

  /// Durably records one transaction's changes and returns its tx-id. `extra` runs inside the
  /// same SQLite transaction (auth endpoints use it to store refresh tokens with the user).
  func commit(
    appID: String, changes: ServerTransactionChanges, now: Double,
    extra: ((Database) throws -> Void)? = nil
  ) throws(InstantLocalError) -> Int {
    try run("commit a transaction for app \(appID)") { db in
      try db.cachedStatement(sql: "INSERT INTO transactions (app_id, created_at) VALUES (?, ?)")
        .execute(arguments: [appID, now])
      let txID = Int(db.lastInsertedRowID)
      for id in changes.deletedAttrIDs {
        try db.execute(sql: "DELETE FROM attrs WHERE app_id = ? AND id = ?", arguments: [appID, id])
        try db.execute(sql: "DELETE FROM triples WHERE app_id = ? AND attr = ?", arguments: [appID, id])
      }
      for attr in changes.upsertedAttrs where !SystemCatalog.isSystemAttr(attr.id) {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO attrs (app_id, id, json) VALUES (?, ?, ?)")
          .execute(arguments: [appID, attr.id, JSON.object(attr.json).serialized()])
      }
      let delete = try db.cachedStatement(
        sql: "DELETE FROM triples WHERE app_id = ? AND entity = ? AND attr = ? AND value = ?")
      for t in changes.removed {
        try delete.execute(arguments: [appID, t.entity, t.attr, t.value.canonicalString])
      }
      let insert = try db.cachedStatement(
        sql: "INSERT OR REPLACE INTO triples (app_id, entity, attr, value, created_at) VALUES (?, ?, ?, ?, ?)")
      for t in changes.added {
        try insert.execute(arguments: [appID, t.entity, t.attr, t.value.canonicalString, t.createdAt])
      }
      try extra?(db)
      return txID
    }
  }

  /// Records a refresh token by its hash (inside a `commit`'s `extra`). The column `token`
  /// holds the hash since migration v3.
  static func insertRefreshToken(_ db: Database, sha256: String, appID: String, userID: String, now: Double) throws {
    try db.execute(
      sql: "INSERT INTO refresh_tokens (token, app_id, user_id, created_at) VALUES (?, ?, ?, ?)",
      arguments: [sha256, appID, userID, now])
  }

  /// Deletes every refresh token of a user (inside a `commit`'s `extra`).
  static func deleteRefreshTokens(_ db: Database, userID: String) throws {
    try db.execute(sql: "DELETE FROM refresh_tokens WHERE user_id = ?", arguments: [userID])
  }

  /// Deletes every refresh token of a user (sign-out everywhere).
  func deleteRefreshTokens(userID: String, appID: String) throws(InstantLocalError) {
    try run("delete the refresh tokens of a user") { db in
      try db.execute(sql: "DELETE FROM refresh_tokens WHERE user_id = ? AND app_id = ?", arguments: [userID, appID])
    }
  }

  /// Deletes a refresh token, by its hash (sign-out).
  func deleteRefreshToken(sha256: String, appID: String) throws(InstantLocalError) {
    try run("delete a refresh token") { db in
      try db.execute(sql: "DELETE FROM refresh_tokens WHERE token = ? AND app_id = ?", arguments: [sha256, appID])
    }
  }

  /// Whether the data file answers a read now (`GET /health/system`).
  func isReadable() -> Bool {
    (try? run("check the data file") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM apps") }) != nil
  }

  func run<T>(_ what: String, _ body: (Database) throws -> T) throws(InstantLocalError) -> T {
    do {
      return try queue.write { db in try body(db) }
    } catch let error as InstantLocalError {
      throw error
    } catch {
      throw .storage("cannot \(what): \(error)")
    }
  }
}
