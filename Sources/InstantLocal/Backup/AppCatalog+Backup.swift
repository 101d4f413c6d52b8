public import Foundation
import InstantBackup
import InstantCore
import OrderedCollections

/// Backups in Instant's format (docs/backups.md): `instant-local backup` and `restore`, for a data
/// file (whether or not a server runs on it) or a running server's own data (``InstantLocalServer/apps``).
extension AppCatalog {
  /// What a backup wrote.
  public struct BackupReport: Sendable, Equatable {
    public var appID: String
    /// Entities per namespace.
    public var counts: [String: Int]
    public var tripleCount: Int
    /// `$files` blobs written.
    public var files: Int
  }

  /// Writes the app, as it is at one moment, to `archive` (a zip in the layout of InstantDB's
  /// backups, which a self-hosted Instant restores). Writes go on meanwhile: the copy is read in
  /// one transaction on a connection of its own.
  ///
  /// - Throws: ``InstantLocalError/invalidApp(_:)`` for an app that does not exist,
  ///   ``InstantLocalError/backup(_:)`` when the archive cannot be written (a blob missing).
  @discardableResult
  public func backup(appID: String, to archive: URL) throws(InstantLocalError) -> BackupReport {
    try backup(appID: appID, to: archive, whileReading: nil)
  }

  func backup(appID raw: String, to archive: URL, whileReading: (() -> Void)?) throws(InstantLocalError) -> BackupReport {
    guard let appID = AppRegistry.normalizeAppID(raw) else { throw .invalidApp("\(raw) is not an app id (a UUID)") }
    guard let snapshot = try storage.snapshot(appID, whileReading: whileReading) else {
      throw .invalidApp("there is no app \(appID) in this data file; `instant-local apps list` shows the apps")
    }
    let blobs = blobDirectory(appID)
    // OAuth providers and clients as InstantDB's `$oauthProviders` and `$oauthClients`, without secrets.
    let oauth = OAuthBackup.triples(
      appID: appID, providers: try storage.oauthProviders(appID), clients: try storage.oauthClients(appID))
    var writer = BackupWriter(
      attrs: SystemCatalog.attrs + OAuthBackup.attrs + snapshot.attrs, triples: snapshot.triples + oauth,
      rules: snapshot.rules, title: snapshot.title,
      appID: appID, backupAt: clock.now,
      blobURL: { locationID in
        guard let blobs else { return nil }
        let url = blobs.appendingPathComponent(locationID, isDirectory: false)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
      })
    if let template = try storage.emailTemplate(appID) {
      writer.emailTemplates = [template.backupJSON]
    }
    writer.authorizedRedirectOrigins = try storage.redirectOrigins(appID).map { origin in
      let (service, params) = origin.service
      return ["service": .string(service), "params": .array(params.map(JSON.string))]
    }
    do {
      let summary = try writer.write(to: archive)
      return BackupReport(
        appID: appID, counts: summary.counts, tripleCount: summary.tripleCount,
        files: summary.entries.filter { $0.hasPrefix("files/") }.count)
    } catch {
      throw .backup(error.description)
    }
  }

  /// What a restore made.
  public struct RestoreReport: Sendable, Equatable {
    /// The restored app, with a new admin token (a backup carries none).
    public var app: CreatedApp
    /// Entities per namespace.
    public var counts: [String: Int]
    /// Namespaces in the backup that instant-local does not keep (refresh tokens, magic codes,
    /// OAuth codes and user links, streams), with their entity counts: users sign in again.
    public var skipped: [String: Int]
    /// `$files` blobs restored.
    public var files: Int
    /// Whether the backup's magic-code email was restored (one with `{code}` in its subject and
    /// body), with its sender.
    public var emailTemplate = false
    /// The backup's redirect origins (`authorizedRedirectOrigins`) restored.
    public var redirectOrigins: [RedirectOrigin] = []
    /// Its origins not restored, each with why: a `vercel` or `netlify` project (every deployment
    /// of it; add each deployment's host), or one not valid here.
    public var skippedRedirectOrigins: [String] = []
    /// The backup's OAuth providers restored (`$oauthProviders`), by name.
    public var oauthProviders: [String] = []
    /// The backup's OAuth clients restored (`$oauthClients`), without their secrets: a backup
    /// carries none.
    public var oauthClients: [String] = []
    /// A sentence for each client not restored, or restored without something the backup had (its
    /// secret, InstantDB encrypted with its own key; its `redirectTo`), saying why.
    public var oauthNotes: [String] = []
  }

  /// Makes a new app from a backup: its schema, data, `$users` (who sign in again), rules and
  /// `$files` blobs. The whole archive is checked first; a problem is reported with the entry and
  /// line it is at, and restores nothing.
  ///
  /// - Parameters:
  ///   - archive: a backup downloaded from Instant, or written by ``backup(appID:to:)``.
  ///   - appID: the new app's id: by default the backup's own (`config.json` `appId`) when this
  ///     data file does not have it, else a new one.
  ///   - title: the new app's title; by default the backup's.
  public func restore(from archive: URL, appID: String? = nil, title: String? = nil) throws(InstantLocalError)
    -> RestoreReport
  {
    let plan: RestorePlan
    do {
      plan = try BackupReader(systemAttrs: SystemCatalog.attrs + OAuthBackup.attrs).read(archive)
    } catch {
      throw .backup(error.description)
    }
    // OAuth providers and clients are kept in tables of their own, not as triples.
    let oauth = OAuthBackup.read(plan.triples.filter { OAuthBackup.holds($0.attr) })
    let triples = plan.triples.filter { !OAuthBackup.holds($0.attr) }
    var counts = plan.entityCounts
    counts[OAuthBackup.providers] = nil
    counts[OAuthBackup.clients] = nil
    let id: String
    if let appID {
      guard let normalized = AppRegistry.normalizeAppID(appID) else { throw .invalidApp("\(appID) is not an app id (a UUID)") }
      id = normalized
    } else if let original = plan.config["appId"]?.stringValue.flatMap(AppRegistry.normalizeAppID),
      try storage.app(original) == nil
    {
      id = original
    } else {
      id = UUID().uuidString.lowercased()
    }
    let name = title ?? plan.title ?? "Restored app"
    let blobs = blobDirectory(id)
    if !plan.blobs.isEmpty {
      guard let blobs else { throw .backup("this server keeps no files on disk, so the backup's $files cannot be restored") }
      do {
        try plan.extractBlobs(into: blobs)
      } catch {
        try? FileManager.default.removeItem(at: blobs)
        throw .backup(error.description)
      }
    }
    let token = AdminToken.generate()
    do {
      try storage.restoreApp(
        id, title: name, adminTokenSHA256: AdminToken.sha256(token), attrs: plan.userAttrs, triples: triples,
        rules: plan.rules, now: clock.nowMillis)
    } catch {
      if let blobs, !plan.blobs.isEmpty { try? FileManager.default.removeItem(at: blobs) }
      throw error
    }
    // The magic-code email with its sender. InstantDB's restore leaves the sender out (there a
    // sender is a record verified with its mail service); here it is only the From address.
    let template = plan.config["emailTemplates"]?.arrayValue?.lazy.compactMap(EmailTemplate.init(backupJSON:)).first
    if let template { try storage.saveEmailTemplate(id, template) }
    var report = RestoreReport(
      app: CreatedApp(id: id, title: name, adminToken: token), counts: counts, skipped: plan.skipped,
      files: plan.blobs.count, emailTemplate: template != nil)
    for provider in oauth.providers { try storage.addOAuthProvider(id, name: provider) }
    for client in oauth.clients {
      do {
        try addOAuthClient(appID: id, client)
        report.oauthClients.append(client.name)
      } catch let .invalidApp(why) {
        report.oauthNotes.append("OAuth client \(client.name) not restored: \(why)")
      }
    }
    report.oauthProviders = oauth.providers
    report.oauthNotes = oauth.notes + report.oauthNotes
    // A generic host becomes an https origin (http on loopback): here an origin has one scheme.
    for entry in plan.config["authorizedRedirectOrigins"]?.arrayValue ?? [] {
      let service = entry["service"]?.stringValue ?? ""
      let params = entry["params"]?.arrayValue?.compactMap(\.stringValue) ?? []
      let origin: RedirectOrigin
      do {
        origin = try RedirectOrigin.fromService(service, params: params)
      } catch {
        report.skippedRedirectOrigins.append("\(service) \(params.joined(separator: " ")): \(error.message)")
        continue
      }
      try storage.addRedirectOrigin(id, origin)
      report.redirectOrigins.append(origin)
    }
    return report
  }
}
