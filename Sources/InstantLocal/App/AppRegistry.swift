import Foundation
import InstantCore
import InstantPermissions
import Logging

/// Every app the server has served since it started, loaded from SQLite on first use. Any
/// well-formed app id is accepted and gets its own isolated data, as the Firebase emulator
/// accepts any project id.
actor AppRegistry {
  let storage: LocalStorage
  let logger: Logger
  private var apps: [String: AppDatabase] = [:]
  /// The rules every app enforces (`nil`: everything allowed).
  private(set) var rules: PermissionRules?

  init(storage: LocalStorage, logger: Logger) {
    self.storage = storage
    self.logger = logger
  }

  /// The app with this (lower-case) id, loading it if needed.
  func app(_ appID: String) throws(InstantLocalError) -> AppDatabase {
    if let app = apps[appID] { return app }
    let snapshot = try storage.loadApp(appID, now: AppDatabase.nowMillis())
    let lastTxID = try storage.lastTxID()
    let app = AppDatabase(
      appID: appID, snapshot: snapshot, processedTxID: lastTxID, storage: storage, rules: rules, logger: logger)
    apps[appID] = app
    logger.info("loaded app \(appID): \(snapshot.attrs.count) attrs, \(snapshot.triples.count) triples")
    return app
  }

  /// Replaces the rules of every app, loaded or not.
  func setRules(_ rules: PermissionRules?) async {
    self.rules = rules
    for app in apps.values { await app.setRules(rules) }
  }

  /// Checks that `raw` is a UUID and returns it lower-cased.
  static func normalizeAppID(_ raw: String) -> String? {
    guard UUID(uuidString: raw) != nil else { return nil }
    return raw.lowercased()
  }
}
