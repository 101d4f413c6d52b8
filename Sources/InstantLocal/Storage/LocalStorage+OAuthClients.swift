import Foundation
import GRDB
import InstantCore

/// Each app's OAuth clients (``OAuthClient``).
extension LocalStorage {
  /// Adds `client` to the app, or replaces the one with its name.
  func saveOAuthClient(_ appID: String, _ client: OAuthClient) throws(InstantLocalError) {
    try run("save OAuth client \(client.name) of app \(appID)") { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO oauth_clients
            (app_id, name, provider, client_id, discovery_endpoint, audiences, client_secret, apple_team_id, apple_key_id,
             provider_name)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          appID, client.name, client.provider.rawValue, client.clientID, client.discoveryEndpoint?.absoluteString ?? "",
          JSON.array(client.audiences.map(JSON.string)).serialized(), client.clientSecret, client.appleTeamID,
          client.appleKeyID, client.provider == .oidc ? client.providerName : nil,
        ])
    }
  }

  /// The app's clients, by name.
  func oauthClients(_ appID: String) throws(InstantLocalError) -> [OAuthClient] {
    try run("read the OAuth clients of app \(appID)") { db in
      try Row.fetchAll(
        db, sql: """
          SELECT name, provider, client_id, discovery_endpoint, audiences, client_secret, apple_team_id, apple_key_id,
            provider_name
          FROM oauth_clients WHERE app_id = ? ORDER BY name
          """,
        arguments: [appID]
      ).compactMap(Self.oauthClient)
    }
  }

  /// The app's client named `name`, if any.
  func oauthClient(_ appID: String, name: String) throws(InstantLocalError) -> OAuthClient? {
    try oauthClients(appID).first { $0.name == name }
  }

  /// Removes the app's client named `name`; false when there was none.
  func removeOAuthClient(_ appID: String, name: String) throws(InstantLocalError) -> Bool {
    try run("remove OAuth client \(name) of app \(appID)") { db in
      try db.execute(sql: "DELETE FROM oauth_clients WHERE app_id = ? AND name = ?", arguments: [appID, name])
      return db.changesCount > 0
    }
  }

  private static func oauthClient(_ row: Row) -> OAuthClient? {
    guard let provider = OAuthClient.Provider(rawValue: row[1]) else { return nil }
    let audiences = (try? JSON.parse(row[4] as String))?.arrayValue?.compactMap(\.stringValue) ?? []
    // "" is the provider's own discovery document.
    return OAuthClient(
      name: row[0], provider: provider, clientID: row[2], discoveryEndpoint: URL(string: row[3] as String), audiences: audiences,
      clientSecret: row[5], appleTeamID: row[6], appleKeyID: row[7], providerName: row[8])
  }

  /// Makes the app's provider `name` (nothing when it has it).
  func addOAuthProvider(_ appID: String, name: String) throws(InstantLocalError) {
    try run("add OAuth provider \(name) to app \(appID)") { db in
      try db.execute(sql: "INSERT OR IGNORE INTO oauth_providers (app_id, name) VALUES (?, ?)", arguments: [appID, name])
    }
  }

  /// The app's providers: those made on their own and those of its clients, by name.
  func oauthProviders(_ appID: String) throws(InstantLocalError) -> [String] {
    let own = try run("read the OAuth providers of app \(appID)") { db in
      try String.fetchAll(db, sql: "SELECT name FROM oauth_providers WHERE app_id = ?", arguments: [appID])
    }
    return Set(own + (try oauthClients(appID)).map(\.providerName)).sorted()
  }
}

/// Each app's authorized redirect origins (``RedirectOrigin``).
extension LocalStorage {
  func addRedirectOrigin(_ appID: String, _ origin: RedirectOrigin) throws(InstantLocalError) {
    try run("add a redirect origin to app \(appID)") { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO redirect_origins (app_id, kind, value) VALUES (?, ?, ?)",
        arguments: [appID, origin.kind.rawValue, origin.value])
    }
  }

  func redirectOrigins(_ appID: String) throws(InstantLocalError) -> [RedirectOrigin] {
    try run("read the redirect origins of app \(appID)") { db in
      try Row.fetchAll(db, sql: "SELECT kind, value FROM redirect_origins WHERE app_id = ? ORDER BY kind, value", arguments: [appID])
        .compactMap { row in RedirectOrigin.Kind(rawValue: row[0]).map { RedirectOrigin(kind: $0, value: row[1]) } }
    }
  }

  /// Removes one; false when the app did not have it.
  func removeRedirectOrigin(_ appID: String, _ origin: RedirectOrigin) throws(InstantLocalError) -> Bool {
    try run("remove a redirect origin of app \(appID)") { db in
      try db.execute(
        sql: "DELETE FROM redirect_origins WHERE app_id = ? AND kind = ? AND value = ?",
        arguments: [appID, origin.kind.rawValue, origin.value])
      return db.changesCount > 0
    }
  }
}
