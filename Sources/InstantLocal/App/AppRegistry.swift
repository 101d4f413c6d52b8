import Foundation
import InstantCore
import InstantPermissions
import Logging

/// Every app the server has served since it started, loaded from SQLite on first use. In
/// development any well-formed app id is accepted and gets its own isolated data, as the
/// Firebase emulator accepts any project id; with `strictApps` only apps made with
/// `instant-local apps create` (or restored from a backup) exist.
actor AppRegistry {
  let storage: LocalStorage
  let logger: Logger
  let strictApps: Bool
  /// The server's `$files` blobs, which every app's queries and storage routes use.
  let files: LocalFiles?
  private var apps: [String: AppDatabase] = [:]
  /// The server's rules (its rules file, or ``InstantLocalServer/setRules(_:)``): while set, every
  /// app enforces them instead of its own.
  private(set) var serverRules: PermissionRules?

  /// What each app's magic codes allow, and whether they are kept as sent (no mailer).
  let magicCodeLimits: MagicCodes.Limits
  let keepsPlainCodes: Bool
  /// Where the apps count what they do (``ServerMetrics``).
  let metrics: ServerMetrics?
  /// The server's clock, which every app stamps and expires by.
  let clock: ServerClock

  init(
    storage: LocalStorage, strictApps: Bool = false, files: LocalFiles? = nil,
    magicCodeLimits: MagicCodes.Limits = .init(), keepsPlainCodes: Bool = true, metrics: ServerMetrics? = nil,
    clock: ServerClock, logger: Logger
  ) {
    self.clock = clock
    self.metrics = metrics
    self.magicCodeLimits = magicCodeLimits
    self.keepsPlainCodes = keepsPlainCodes
    self.storage = storage
    self.files = files
    self.strictApps = strictApps
    self.logger = logger
  }

  /// The app with this (lower-case) id, loading it if needed.
  ///
  /// - Throws: `record-not-found` (`app`) for an app that does not exist under `strictApps`; a
  ///   server fault when the storage fails.
  func app(_ appID: String) throws(ServerError) -> AppDatabase {
    if let app = apps[appID] { return app }
    let loaded: LocalStorage.AppSnapshot?
    let lastTxID: Int
    do {
      loaded = try storage.loadApp(appID, creating: !strictApps, now: clock.nowMillis)
      lastTxID = try storage.lastTxID()
    } catch {
      logger.error("\(error)")
      throw .serverFault("The app could not be loaded: \(error)")
    }
    guard let snapshot = loaded else { throw .recordNotFound("app", args: ["id": .string(appID)]) }
    // Every line an app logs names it.
    var appLogger = logger
    appLogger[metadataKey: "app_id"] = "\(appID)"
    let app = AppDatabase(
      appID: appID, snapshot: snapshot, processedTxID: lastTxID, storage: storage,
      rules: serverRules ?? Self.compiled(snapshot.rules, logger: appLogger), files: files,
      magicCodeLimits: magicCodeLimits, keepsPlainCodes: keepsPlainCodes, metrics: metrics, clock: clock, logger: appLogger)
    apps[appID] = app
    appLogger.info("loaded app", metadata: ["attrs": "\(snapshot.attrs.count)", "triples": "\(snapshot.triples.count)"])
    return app
  }

  /// The app if it is loaded, without loading it.
  func loadedApp(_ appID: String) -> AppDatabase? { apps[appID] }

  /// What the loaded apps hold now, summed, for `GET /metrics`.
  func metricsSnapshot() async -> ServerMetrics.Snapshot {
    var total = ServerMetrics.Snapshot(apps: apps.count)
    for app in apps.values {
      let now = await app.metricsSnapshot()
      total.sessions += now.sessions
      total.queries += now.queries
      total.queuedBytes += now.queuedBytes
    }
    return total
  }

  /// Makes `rules` every app's, loaded or not, in place of their own; `nil` gives each app its own
  /// rules back.
  func setServerRules(_ rules: PermissionRules?) async {
    serverRules = rules
    for (appID, app) in apps {
      let own = rules == nil ? try? storage.rules(appID) : nil
      await app.setRules(rules ?? Self.compiled(own ?? nil, logger: app.logger))
    }
  }

  /// Replaces one app's own rules, stored with it; refused while a rules file is in force.
  func setRules(_ code: JSON?, of appID: String) async throws(ServerError) -> (rules: PermissionRules?, version: Int) {
    if serverRules != nil {
      throw ServerError(
        .validationFailed,
        message: "This server enforces one set of rules for every app (--rules); edit that file instead.",
        hint: ["data-type": "rule", "input": code ?? .null, "errors": []])
    }
    var rules: PermissionRules?
    if let code { rules = try PermissionRules(validating: code) }
    let app = try app(appID)
    let version: Int
    do {
      version = try storage.saveRules(appID, code: code)
    } catch {
      throw .serverFault("The rules could not be saved: \(error)")
    }
    await app.setRules(rules)
    return (rules, version)
  }

  /// The rules `appID` enforces, as their JSON: the server's, else the app's own.
  func rulesCode(of appID: String) throws(ServerError) -> JSON? {
    if let serverRules { return serverRules.document.json }
    do {
      return try storage.rules(appID)
    } catch {
      throw .serverFault("The rules could not be read: \(error)")
    }
  }

  /// Whether the app exists and has an admin token.
  func hasAdminToken(_ appID: String) throws(ServerError) -> Bool {
    do {
      return (try storage.adminTokenSHA256(appID) ?? nil) != nil
    } catch {
      throw .serverFault("The app could not be read: \(error)")
    }
  }

  /// An app's stored rules, compiled. Stored rules were checked when they were saved; if they no
  /// longer compile (a file edited by hand), the app fails closed: it denies every request that is
  /// not an admin's until new rules are pushed.
  private static func compiled(_ code: JSON?, logger: Logger) -> PermissionRules? {
    guard let code else { return nil }
    do {
      return try PermissionRules(code)
    } catch {
      logger.error(
        "the app's stored rules do not compile, so it denies everything until new rules are pushed",
        metadata: ["error": "\(error)"])
      return try? PermissionRules(["$default": ["allow": ["$default": "false"]]])
    }
  }

  /// Checks that `raw` is a UUID and returns it lower-cased.
  static func normalizeAppID(_ raw: String) -> String? {
    guard UUID(uuidString: raw) != nil else { return nil }
    return raw.lowercased()
  }
}
