import Foundation

/// Each app's OAuth clients: what `instant-local apps oauth-clients add|list|remove` does. A
/// running server reads them on every sign-in, so a change takes effect at once.
extension AppCatalog {
  /// Gives the app `client` (replacing its client of the same name).
  ///
  /// - Throws: ``InstantLocalError/invalidApp(_:)`` when there is no such app, and when the client
  ///   lacks a name or client id, or its discovery endpoint is missing (`oidc`) or not https
  ///   (plain http only on loopback).
  public func addOAuthClient(appID: String, _ client: OAuthClient) throws(InstantLocalError) {
    let id = try existingAppID(appID)
    guard !client.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidApp("an OAuth client needs a name (--name)") }
    guard !client.clientID.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw .invalidApp("an OAuth client needs the client id its provider gave the app (--client-id)")
    }
    guard let endpoint = client.endpoint else {
      throw .invalidApp("an oidc client needs its provider's discovery endpoint (--discovery-endpoint)")
    }
    guard OpenIDDirectory.mayFetch(endpoint) else {
      throw .invalidApp("the discovery endpoint must be https (plain http only on loopback): \(endpoint.absoluteString)")
    }
    if client.provider == .apple, let secret = client.clientSecret {
      guard client.appleTeamID?.isEmpty == false, client.appleKeyID?.isEmpty == false else {
        throw .invalidApp("an apple client's web sign-in needs --apple-team-id and --apple-key-id with its key")
      }
      guard AppleClientSecret.privateKey(secret) != nil else {
        throw .invalidApp("an apple client's secret must be the private key (PEM, the .p8 file Apple gave)")
      }
    }
    try storage.saveOAuthClient(id, client)
  }

  /// The app's OAuth clients, by name.
  public func oauthClients(appID: String) throws(InstantLocalError) -> [OAuthClient] {
    try storage.oauthClients(try existingAppID(appID))
  }

  /// Makes the app's OAuth provider `name` (the admin API's `oauth_service_providers`), for
  /// clients to be made under: `google`, `apple`, or the name of an OpenID Connect provider.
  public func addOAuthProvider(appID: String, name: String) throws(InstantLocalError) {
    try storage.addOAuthProvider(try existingAppID(appID), name: name)
  }

  /// The app's OAuth providers: those made on their own and those of its clients, by name.
  public func oauthProviders(appID: String) throws(InstantLocalError) -> [String] {
    try storage.oauthProviders(try existingAppID(appID))
  }

  /// Removes the app's client named `name`.
  ///
  /// - Throws: ``InstantLocalError/invalidApp(_:)`` when there is no such app or client.
  public func removeOAuthClient(appID: String, name: String) throws(InstantLocalError) {
    guard try storage.removeOAuthClient(try existingAppID(appID), name: name) else {
      throw .invalidApp("app \(appID) has no OAuth client named \(name)")
    }
  }
}

/// Each app's redirect origins: what `instant-local apps redirect-origins add|list|remove` does.
extension AppCatalog {
  /// Lets the app's OAuth web sign-in return to `origin`.
  public func addRedirectOrigin(appID: String, _ origin: RedirectOrigin) throws(InstantLocalError) {
    try storage.addRedirectOrigin(try existingAppID(appID), origin)
  }

  /// The app's redirect origins.
  public func redirectOrigins(appID: String) throws(InstantLocalError) -> [RedirectOrigin] {
    try storage.redirectOrigins(try existingAppID(appID))
  }

  /// Removes one of the app's redirect origins.
  ///
  /// - Throws: ``InstantLocalError/invalidApp(_:)`` when there is no such app or origin.
  public func removeRedirectOrigin(appID: String, _ origin: RedirectOrigin) throws(InstantLocalError) {
    guard try storage.removeRedirectOrigin(try existingAppID(appID), origin) else {
      throw .invalidApp("app \(appID) has no redirect origin \(origin.value)")
    }
  }
}
