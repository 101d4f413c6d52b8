import Foundation
import InstantCore
import Logging

/// The apps of an instant-local data file, and their admin tokens: what
/// `instant-local apps create|list|rotate-token` does, for a server's own data
/// (``InstantLocalServer/apps``) or a data file on disk, whether or not a server is running on it.
///
/// An admin token is shown once, when it is made; the data file keeps only its SHA-256.
public struct AppCatalog: Sendable {
  let storage: LocalStorage
  /// Where an app's `$files` blobs are kept (`nil`: nowhere on disk).
  let blobDirectory: @Sendable (_ appID: String) -> URL?
  /// What apps and backups are stamped with.
  let clock: ServerClock

  init(storage: LocalStorage, clock: ServerClock, blobDirectory: @escaping @Sendable (_ appID: String) -> URL?) {
    self.storage = storage
    self.clock = clock
    self.blobDirectory = blobDirectory
  }

  /// Opens (creating if needed) the data file at `path`; `clock` stamps what it makes.
  public init(dataFile path: String, clock: ServerClock = .live) throws(InstantLocalError) {
    self.clock = clock
    storage = try LocalStorage(path: path, logger: .init(label: "instant-local"))
    blobDirectory = { appID in LocalStorage.blobDirectory(dataFile: path, appID: appID) }
  }

  /// A new app and its admin token.
  public struct CreatedApp: Sendable, Equatable {
    public var id: String
    public var title: String
    /// Shown once: only its hash is stored.
    public var adminToken: String
  }

  /// Makes an app with a new id and admin token.
  public func create(title: String) throws(InstantLocalError) -> CreatedApp {
    let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty else { throw .invalidApp("an app needs a title (--title)") }
    let id = UUID().uuidString.lowercased()
    let token = AdminToken.generate()
    try storage.createApp(id: id, title: title, adminTokenSHA256: AdminToken.sha256(token), now: clock.nowMillis)
    return CreatedApp(id: id, title: title, adminToken: token)
  }

  /// Every app in the data file, oldest first.
  public func list() throws(InstantLocalError) -> [AppRecord] { try storage.apps() }

  /// Gives the app a new admin token, which replaces the old one at once (a running server
  /// checks tokens against the data file on every request).
  ///
  /// - Throws: ``InstantLocalError/invalidApp(_:)`` when there is no such app.
  public func rotateToken(appID: String) throws(InstantLocalError) -> String {
    guard let id = AppRegistry.normalizeAppID(appID) else { throw .invalidApp("\(appID) is not an app id (a UUID)") }
    let token = AdminToken.generate()
    guard try storage.setAdminToken(id, sha256: AdminToken.sha256(token)) else {
      throw .invalidApp("there is no app \(id) in this data file; `instant-local apps list` shows the apps")
    }
    return token
  }

  /// The normalized id of an app in the data file.
  func existingAppID(_ appID: String) throws(InstantLocalError) -> String {
    guard let id = AppRegistry.normalizeAppID(appID) else { throw .invalidApp("\(appID) is not an app id (a UUID)") }
    guard try storage.app(id) != nil else {
      throw .invalidApp("there is no app \(id) in this data file; `instant-local apps list` shows the apps")
    }
    return id
  }
}
