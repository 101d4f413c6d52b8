public import Foundation

/// An app's OAuth client: the name an app signs in with (`signInWithIdToken(clientName:)`), its
/// provider, and what an ID token for it must say (docs/instant-local.md, "Sign in with an ID
/// token"). Kept in the data file; made with `instant-local apps oauth-clients add` or
/// ``AppCatalog/addOAuthClient(appID:_:)``.
public struct OAuthClient: Sendable, Equatable {
  /// Who issues the client's ID tokens.
  public enum Provider: String, Sendable, CaseIterable {
    case google
    case apple
    /// Any OpenID Connect provider, named by its discovery endpoint.
    case oidc
  }

  /// The `client_name` apps send.
  public var name: String
  public var provider: Provider
  /// The client id the provider gave the app: an ID token's `aud` must name it (or one of
  /// ``audiences``).
  public var clientID: String
  /// The provider's OpenID discovery document, which names its issuer and signing keys; `nil` for
  /// Google's and Apple's own (``Provider/discoveryEndpoint``). An `oidc` client needs one.
  public var discoveryEndpoint: URL?
  /// Other audiences accepted: an iOS app's bundle id for Sign in with Apple, or the iOS and
  /// Android client ids of a Google project, whose tokens name those instead of ``clientID``.
  public var audiences: [String]
  /// The client secret the provider gave the app, for the OAuth web flow's code exchange
  /// (`/runtime/oauth/start`); for Sign in with Apple, the private key (PEM, from the `.p8` file)
  /// the client secret is signed with. `nil` allows ID-token sign-in only. Kept in the data file.
  public var clientSecret: String?
  /// Sign in with Apple's web flow: the team id and the key id of ``clientSecret``.
  public var appleTeamID: String?
  public var appleKeyID: String?

  /// The provider's name in the admin API (`oauth_service_providers`): `google` and `apple` for
  /// theirs; for an `oidc` client the name it was made under (`oidc` when none was given).
  public var providerName: String { provider == .oidc ? (oidcProviderName ?? Provider.oidc.rawValue) : provider.rawValue }
  private var oidcProviderName: String?

  public init(
    name: String, provider: Provider, clientID: String, discoveryEndpoint: URL? = nil, audiences: [String] = [],
    clientSecret: String? = nil, appleTeamID: String? = nil, appleKeyID: String? = nil, providerName: String? = nil
  ) {
    self.oidcProviderName = provider == .oidc ? providerName : nil
    self.name = name
    self.provider = provider
    self.clientID = clientID
    self.discoveryEndpoint = discoveryEndpoint
    self.audiences = audiences
    self.clientSecret = clientSecret
    self.appleTeamID = appleTeamID
    self.appleKeyID = appleKeyID
  }

  /// The discovery document used: the one given, else the provider's.
  public var endpoint: URL? { discoveryEndpoint ?? provider.discoveryEndpoint }

  /// Every `aud` an ID token for this client may carry.
  var acceptedAudiences: Set<String> { Set([clientID] + audiences) }
}

extension OAuthClient.Provider {
  /// The provider's discovery document, as the reference's constants name it (`nil` for `oidc`,
  /// which needs one given).
  public var discoveryEndpoint: URL? {
    switch self {
    case .google: URL(string: "https://accounts.google.com/.well-known/openid-configuration")
    case .apple: URL(string: "https://appleid.apple.com/.well-known/openid-configuration")
    case .oidc: nil
    }
  }
}
