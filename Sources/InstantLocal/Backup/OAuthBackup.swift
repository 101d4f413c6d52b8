import Foundation
import InstantCore
import OrderedCollections

/// An app's OAuth providers and clients in a backup, as InstantDB keeps them: `$oauthProviders`
/// (`id`, `name`) and `$oauthClients` (`id`, `$oauthProvider`, `name`, `clientId`,
/// `encryptedClientSecret`, `discoveryEndpoint`, `meta`, `redirectTo`, `useSharedCredentials`),
/// with the reference's system attr ids, so either server's restore reads the other's lines.
///
/// A backup never holds a client secret: instant-local writes no `encryptedClientSecret`, and one
/// InstantDB wrote (encrypted with that server's own key) is not restored. instant-local keeps
/// clients in tables of their own, not as triples, so these lines are read back into
/// ``OAuthClient``s (docs/backups.md, "OAuth providers and clients").
enum OAuthBackup {
  static let providers = "$oauthProviders"
  static let clients = "$oauthClients"

  /// The two namespaces' attrs, as the reference's system catalog makes them (`op` and `oc`).
  static let attrs: [Attr] = [
    attr("op", "id", "$oauthProviders", "id", unique: true, indexed: true),
    attr("op", "name", "$oauthProviders", "name", unique: true, indexed: true, type: "string"),
    attr("oc", "id", "$oauthClients", "id", unique: true, indexed: true),
    Attr(
      id: SystemCatalog.systemID(.attr, "oc", "oprovider"),
      forward: Ident(id: SystemCatalog.systemID(.ident, "oc", "oprovider"), etype: clients, label: "$oauthProvider"),
      reverse: Ident(id: SystemCatalog.systemID(.ident, "op", "oc"), etype: providers, label: "$oauthClients"),
      valueType: "ref", cardinality: .one, onDelete: "cascade",
      extra: ["required?": false, "inferred-types": nil, "catalog": "system"]),
    attr("oc", "name", "$oauthClients", "name", unique: true, indexed: true, type: "string"),
    attr("oc", "clientid", "$oauthClients", "clientId", indexed: true),
    attr("oc", "encclisec", "$oauthClients", "encryptedClientSecret", type: "string"),
    attr("oc", "discovend", "$oauthClients", "discoveryEndpoint", type: "string"),
    attr("oc", "meta", "$oauthClients", "meta"),
    attr("oc", "redirecto", "$oauthClients", "redirectTo", type: "string"),
    attr("oc", "usesharcr", "$oauthClients", "useSharedCredentials", type: "boolean"),
  ]

  private static let ids = Set(attrs.map(\.id))
  private static let byLabel = Dictionary(uniqueKeysWithValues: attrs.map { ("\($0.forwardIdentity.etype).\($0.forwardIdentity.label)", $0.id) })

  /// Whether a triple of `attr` belongs to these namespaces.
  static func holds(_ attr: String) -> Bool { ids.contains(attr) }

  // MARK: Writing

  /// The triples of the app's providers and clients. Ids are the admin API's (``AuthSettingID``);
  /// a client's `meta` carries Apple's `teamId` and `keyId` as the reference's does, and
  /// instant-local's `audiences`; no secret is written.
  static func triples(appID: String, providers: [String], clients: [OAuthClient]) -> [Triple] {
    var out: [Triple] = []
    func add(_ entity: String, _ key: String, _ value: JSON) {
      guard let attr = byLabel[key] else { preconditionFailure("no attr \(key)") }
      out.append(Triple(entity, attr, value))
    }
    for name in Set(providers + clients.map(\.providerName)).sorted() {
      let id = AuthSettingID.provider(appID, name)
      add(id, "$oauthProviders.id", .string(id))
      add(id, "$oauthProviders.name", .string(name))
    }
    for client in clients {
      let id = AuthSettingID.client(appID, client.name)
      add(id, "$oauthClients.id", .string(id))
      add(id, "$oauthClients.$oauthProvider", .string(AuthSettingID.provider(appID, client.providerName)))
      add(id, "$oauthClients.name", .string(client.name))
      add(id, "$oauthClients.clientId", .string(client.clientID))
      if let endpoint = client.endpoint { add(id, "$oauthClients.discoveryEndpoint", .string(endpoint.absoluteString)) }
      var meta: JSONObject = [:]
      if let team = client.appleTeamID { meta["teamId"] = .string(team) }
      if let key = client.appleKeyID { meta["keyId"] = .string(key) }
      if !client.audiences.isEmpty { meta["audiences"] = .array(client.audiences.map(JSON.string)) }
      if !meta.isEmpty { add(id, "$oauthClients.meta", .object(meta)) }
      add(id, "$oauthClients.useSharedCredentials", false)
    }
    return out
  }

  // MARK: Reading

  /// What a backup's providers and clients restore to.
  struct Restored {
    /// Providers, by name, with or without clients.
    var providers: [String] = []
    var clients: [OAuthClient] = []
    /// A sentence per client not restored, or restored without something the backup had.
    var notes: [String] = []
  }

  /// Reads the providers and clients from a restore plan's triples of these namespaces (already
  /// checked by ``BackupReader``: ids are UUIDs, a client's provider is in the backup, names are
  /// unique). A client that cannot sign anyone in here is left out with a note saying why.
  static func read(_ triples: [Triple]) -> Restored {
    // Per namespace, per entity, per label; a provider and a client with one id stay apart.
    let labels = Dictionary(uniqueKeysWithValues: attrs.map { ($0.id, $0.forwardIdentity) })
    var entities: [String: [String: [String: JSON]]] = [providers: [:], clients: [:]]
    for triple in triples {
      guard let ident = labels[triple.attr] else { continue }
      entities[ident.etype, default: [:]][triple.entity, default: [:]][ident.label] = triple.value
    }
    var providerNames: [String: String] = [:]
    for (id, fields) in entities[providers] ?? [:] {
      if let name = fields["name"]?.stringValue { providerNames[id] = name }
    }

    var restored = Restored()
    restored.providers = providerNames.values.filter { $0 != "github" }.sorted()
    if providerNames.values.contains("github") {
      restored.notes.append("OAuth provider github not restored: instant-local signs in through OpenID Connect providers, and GitHub is not one")
    }
    for (id, fields) in (entities[clients] ?? [:]).sorted(by: { $0.key < $1.key }) {
      let name = fields["name"]?.stringValue ?? id
      switch client(fields, providerNames: providerNames) {
      case let .success((client, notes)):
        restored.clients.append(client)
        restored.notes += notes.map { "OAuth client \(name): \($0)" }
      case let .failure(refusal):
        restored.notes.append("OAuth client \(name) not restored: \(refusal.message)")
      }
    }
    restored.clients.sort { $0.name < $1.name }
    return restored
  }

  struct Refusal: Error {
    var message: String
  }

  private static func client(_ fields: [String: JSON], providerNames: [String: String]) -> Result<(OAuthClient, [String]), Refusal> {
    guard let name = fields["name"]?.stringValue, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
      return .failure(Refusal(message: "it has no name"))
    }
    guard let providerID = fields["$oauthProvider"]?.stringValue, let providerName = providerNames[providerID] else {
      return .failure(Refusal(message: "it has no provider"))
    }
    if fields["useSharedCredentials"]?.boolValue == true {
      return .failure(Refusal(message: "it uses InstantDB's shared \(providerName) credentials, which only InstantDB's hosted service has; add a client with your own client id"))
    }
    guard providerName != "github" else {
      return .failure(Refusal(message: "instant-local signs in through OpenID Connect providers, and GitHub is not one"))
    }
    guard let clientID = fields["clientId"]?.stringValue, !clientID.isEmpty else {
      return .failure(Refusal(message: "it has no client id"))
    }
    let provider = OAuthClient.Provider(rawValue: providerName).flatMap { $0 == .oidc ? nil : $0 } ?? .oidc
    var endpoint: URL?
    if let text = fields["discoveryEndpoint"]?.stringValue {
      guard let url = URL(string: text), url.scheme != nil else {
        return .failure(Refusal(message: "its discovery endpoint \(text) is not a URL"))
      }
      endpoint = url == provider.discoveryEndpoint ? nil : url
    }
    if provider == .oidc, endpoint == nil {
      return .failure(Refusal(message: "a \(providerName) client needs its provider's discovery endpoint, and the backup has none"))
    }
    let meta = fields["meta"]
    let audiences = meta?["audiences"]?.arrayValue?.compactMap(\.stringValue) ?? []
    let client = OAuthClient(
      name: name, provider: provider, clientID: clientID, discoveryEndpoint: endpoint, audiences: audiences,
      appleTeamID: meta?["teamId"]?.stringValue, appleKeyID: meta?["keyId"]?.stringValue, providerName: providerName)
    var notes: [String] = []
    if let secret = fields["encryptedClientSecret"], secret != .null {
      notes.append(
        "its client secret is not restored (InstantDB encrypts it with its own server's key): until it is set again, "
          + "only ID-token sign-in works (`apps oauth-clients add --client-secret-file`, or the admin API)")
    }
    if let redirect = fields["redirectTo"]?.stringValue {
      notes.append("its redirectTo (\(redirect)) is not kept: instant-local returns to the redirect_uri the app sends")
    }
    return .success((client, notes))
  }

  private static func attr(
    _ namespaceCode: String, _ labelCode: String, _ etype: String, _ label: String, unique: Bool = false,
    indexed: Bool = false, type: String? = nil
  ) -> Attr {
    Attr(
      id: SystemCatalog.systemID(.attr, namespaceCode, labelCode),
      forward: Ident(id: SystemCatalog.systemID(.ident, namespaceCode, labelCode), etype: etype, label: label),
      unique: unique, indexed: indexed, checkedDataType: type,
      extra: ["required?": false, "inferred-types": type.map { .array([.string($0)]) } ?? .null, "catalog": "system"])
  }
}
