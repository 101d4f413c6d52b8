import Foundation
import Hummingbird
import InstantCore
import OrderedCollections

/// The `/dash` routes that manage an app's sign-in settings with its admin token, as InstantDB's
/// (docs/admin.md, "Sign-in settings"): OAuth providers and clients, redirect origins and the
/// magic-code email. What `instant-local apps oauth-clients|redirect-origins|email-template` does
/// on a data file, over HTTP on a running server; each change holds from the next sign-in.
extension HTTPRoutes {
  func registerAuthSettings(on router: Router<HTTPRequestContext>) {
    let settings = AuthSettings(catalog: AppCatalog(storage: registry.storage, clock: registry.clock, blobDirectory: { _ in nil }))
    router.get("/dash/apps/:appId/auth") { request, context in
      await handle(nil) { _ throws(ServerError) in try settings.all(try await app(request, context)) }
    }
    router.post("/dash/apps/:appId/authorized_redirect_origins") { request, context in
      await handle(request) { body throws(ServerError) in try settings.addOrigin(try await app(request, context), body) }
    }
    router.delete("/dash/apps/:appId/authorized_redirect_origins/:id") { request, context in
      await handle(nil) { _ throws(ServerError) in
        try settings.removeOrigin(try await app(request, context), id: context.parameters.get("id") ?? "")
      }
    }
    router.post("/dash/apps/:appId/oauth_service_providers") { request, context in
      await handle(request) { body throws(ServerError) in try settings.addProvider(try await app(request, context), body) }
    }
    router.post("/dash/apps/:appId/oauth_clients") { request, context in
      await handle(request) { body throws(ServerError) in try settings.addClient(try await app(request, context), body) }
    }
    router.post("/dash/apps/:appId/oauth_clients/:id") { request, context in
      await handle(request) { body throws(ServerError) in
        try settings.updateClient(try await app(request, context), id: context.parameters.get("id") ?? "", body)
      }
    }
    router.delete("/dash/apps/:appId/oauth_clients/:id") { request, context in
      await handle(nil) { _ throws(ServerError) in
        try settings.removeClient(try await app(request, context), id: context.parameters.get("id") ?? "")
      }
    }
    router.post("/dash/apps/:appId/email_templates") { request, context in
      await handle(request) { body throws(ServerError) in try settings.setEmailTemplate(try await app(request, context), body) }
    }
    router.delete("/dash/apps/:appId/email_templates/:id") { request, context in
      await handle(nil) { _ throws(ServerError) in
        try settings.removeEmailTemplate(try await app(request, context), id: context.parameters.get("id") ?? "")
      }
    }
  }
}

extension HTTPRoutes {
  /// The route's app, once the request's admin token is its own.
  fileprivate func app(_ request: Request, _ context: HTTPRequestContext) async throws(ServerError) -> String {
    let appID = try Self.pathAppID(context)
    try await registry.authorizeDash(appID: appID, authorization: request.headers[.authorization])
    return appID
  }
}

/// What each sign-in settings route does, on the catalog the CLI uses.
struct AuthSettings: Sendable {
  let catalog: AppCatalog

  func all(_ appID: String) throws(ServerError) -> JSON {
    let providers = try run { () throws(InstantLocalError) in try catalog.oauthProviders(appID: appID) }
    let clients = try run { () throws(InstantLocalError) in try catalog.oauthClients(appID: appID) }
    let origins = try run { () throws(InstantLocalError) in try catalog.redirectOrigins(appID: appID) }
    let template = try run { () throws(InstantLocalError) in try catalog.emailTemplate(appID: appID) }
    return [
      "oauth_service_providers": .array(providers.map { Self.provider(appID, $0) }),
      "oauth_clients": .array(clients.map { $0.json(appID: appID) }),
      // The reference's is null when there are none (SQL json_agg).
      "authorized_redirect_origins": origins.isEmpty ? .null : .array(origins.map { $0.json(appID: appID) }),
      "email_templates": .array(template.map { [$0.json(appID: appID)] } ?? []),
    ]
  }

  // MARK: Redirect origins

  func addOrigin(_ appID: String, _ body: JSON) throws(ServerError) -> JSON {
    guard let service = body["service"]?.stringValue, !service.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw body["service"] == nil ? .paramMissing("service") : .paramMalformed("service", input: body["service"] ?? .null)
    }
    guard let raw = body["params"]?.arrayValue else {
      throw body["params"] == nil ? .paramMissing("params") : .paramMalformed("params", input: body["params"] ?? .null)
    }
    let params = raw.compactMap(\.stringValue)
    guard params.count == raw.count else { throw .validation("origin-request", input: body, ["The params should be strings."]) }
    let origin: RedirectOrigin
    do {
      origin = try RedirectOrigin.fromService(service, params: params)
    } catch {
      throw .validation("origin-request", input: body, [error.message])
    }
    try run { () throws(InstantLocalError) in try catalog.addRedirectOrigin(appID: appID, origin) }
    return ["origin": origin.json(appID: appID)]
  }

  func removeOrigin(_ appID: String, id: String) throws(ServerError) -> JSON {
    let origins = try run { () throws(InstantLocalError) in try catalog.redirectOrigins(appID: appID) }
    guard let origin = origins.first(where: { AuthSettingID.origin(appID, $0) == id.lowercased() }) else {
      throw .recordNotFound("app-authorized-redirect-origin", args: [["id": .string(id)]])
    }
    try run { () throws(InstantLocalError) in try catalog.removeRedirectOrigin(appID: appID, origin) }
    return ["origin": origin.json(appID: appID)]
  }

  // MARK: Providers and clients

  static func provider(_ appID: String, _ name: String) -> JSON {
    ["id": .string(AuthSettingID.provider(appID, name)), "provider_name": .string(name)]
  }

  func addProvider(_ appID: String, _ body: JSON) throws(ServerError) -> JSON {
    guard let name = body["provider_name"]?.stringValue?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
      throw body["provider_name"] == nil
        ? .paramMissing("provider_name") : .paramMalformed("provider_name", input: body["provider_name"] ?? .null)
    }
    guard name != "github" else {
      throw .validation(
        "oauth-service-provider", input: body,
        ["instant-local signs in through OpenID Connect providers (Google, Apple, any with a discovery document); GitHub is not one"])
    }
    let existing = try run { () throws(InstantLocalError) in try catalog.oauthProviders(appID: appID) }
    guard !existing.contains(name) else {
      throw ServerError(
        .recordNotUnique, message: "Record not unique: oauth-service-provider",
        hint: ["record-type": "oauth-service-provider", "input": body])
    }
    try run { () throws(InstantLocalError) in try catalog.addOAuthProvider(appID: appID, name: name) }
    return ["provider": Self.provider(appID, name)]
  }

  func addClient(_ appID: String, _ body: JSON) throws(ServerError) -> JSON {
    guard let providerID = body["provider_id"]?.stringValue else {
      throw body["provider_id"] == nil ? .paramMissing("provider_id") : .paramMalformed("provider_id", input: body["provider_id"] ?? .null)
    }
    let providers = try run { () throws(InstantLocalError) in try catalog.oauthProviders(appID: appID) }
    guard let providerName = providers.first(where: { AuthSettingID.provider(appID, $0) == providerID.lowercased() }) else {
      throw .recordNotFound("oauth-service-provider", args: [["id": .string(providerID)]])
    }
    guard let name = body["client_name"]?.stringValue?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
      throw body["client_name"] == nil ? .paramMissing("client_name") : .paramMalformed("client_name", input: body["client_name"] ?? .null)
    }
    let clients = try run { () throws(InstantLocalError) in try catalog.oauthClients(appID: appID) }
    guard !clients.contains(where: { $0.name == name }) else {
      throw ServerError(
        .recordNotUnique, message: "Record not unique: app-oauth-client", hint: ["record-type": "app-oauth-client", "input": body])
    }
    let provider = OAuthClient.Provider(rawValue: providerName).flatMap { $0 == .oidc ? nil : $0 } ?? .oidc
    var client = OAuthClient(name: name, provider: provider, clientID: "", providerName: providerName)
    try Self.apply(body, to: &client)
    try save(appID, client, input: body)
    return ["client": client.json(appID: appID)]
  }

  func updateClient(_ appID: String, id: String, _ body: JSON) throws(ServerError) -> JSON {
    var client = try client(appID, id: id)
    try Self.apply(body, to: &client)
    try save(appID, client, input: body)
    return ["client": client.json(appID: appID)]
  }

  func removeClient(_ appID: String, id: String) throws(ServerError) -> JSON {
    let client = try client(appID, id: id)
    try run { () throws(InstantLocalError) in try catalog.removeOAuthClient(appID: appID, name: client.name) }
    return ["client": client.json(appID: appID)]
  }

  private func client(_ appID: String, id: String) throws(ServerError) -> OAuthClient {
    let clients = try run { () throws(InstantLocalError) in try catalog.oauthClients(appID: appID) }
    guard let client = clients.first(where: { AuthSettingID.client(appID, $0.name) == id.lowercased() }) else {
      throw .recordNotFound("app-oauth-client", args: [["id": .string(id)]])
    }
    return client
  }

  private func save(_ appID: String, _ client: OAuthClient, input: JSON) throws(ServerError) {
    do {
      try catalog.addOAuthClient(appID: appID, client)
    } catch let .invalidApp(message) {
      throw .validation("oauth-client", input: Self.withoutSecret(input), [message])
    } catch {
      throw .serverFault("The OAuth client could not be saved: \(error)")
    }
  }

  /// Sets the client's fields the body has: `client_id`, `client_secret` (`null` clears it),
  /// `discovery_endpoint`, `meta` (`teamId`, `keyId` for Apple) and `audiences`.
  static func apply(_ body: JSON, to client: inout OAuthClient) throws(ServerError) {
    let input = withoutSecret(body)
    func string(_ key: String) throws(ServerError) -> String?? {
      guard let value = body[key] else { return .none }
      if value == .null { return .some(nil) }
      guard let text = value.stringValue, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw .paramMalformed(key, input: key == "client_secret" ? "(hidden)" : value)
      }
      return .some(text)
    }
    if body["use_shared_credentials"]?.boolValue == true {
      throw .validation("oauth-client", input: input, ["instant-local has no shared credentials: give the client_id your provider gave you"])
    }
    if let redirect = body["redirect_to"], redirect != .null {
      throw .validation(
        "oauth-client", input: input,
        ["instant-local returns to the redirect_uri the app sends (one of its redirect origins); redirect_to is not kept"])
    }
    if case let .some(value) = try string("client_id") { client.clientID = value ?? "" }
    if case let .some(value) = try string("client_secret") { client.clientSecret = value }
    if case let .some(value) = try string("discovery_endpoint") {
      let url = value.flatMap { URL(string: $0) }
      if value != nil, url == nil { throw .paramMalformed("discovery_endpoint", input: body["discovery_endpoint"] ?? .null) }
      client.discoveryEndpoint = url
    }
    if let meta = body["meta"], meta != .null {
      guard case .object = meta else { throw .paramMalformed("meta", input: meta) }
      if let team = meta["teamId"] { client.appleTeamID = team.stringValue }
      if let key = meta["keyId"] { client.appleKeyID = key.stringValue }
    }
    if let audiences = body["audiences"] {
      guard let list = audiences.arrayValue?.compactMap(\.stringValue), list.count == audiences.arrayValue?.count else {
        throw .paramMalformed("audiences", input: audiences)
      }
      client.audiences = list
    }
  }

  /// The body as an error may repeat it: never the secret.
  static func withoutSecret(_ body: JSON) -> JSON {
    guard case var .object(object) = body else { return body }
    if object["client_secret"] != nil { object["client_secret"] = "(hidden)" }
    return .object(object)
  }

  // MARK: Email templates

  func setEmailTemplate(_ appID: String, _ body: JSON) throws(ServerError) -> JSON {
    for key in ["email-type", "subject", "body"] where body[key]?.stringValue == nil {
      throw body[key] == nil ? .paramMissing(key) : .paramMalformed(key, input: body[key] ?? .null)
    }
    guard body["email-type"]?.stringValue == "magic-code" else {
      throw .validation("email-template", input: body, ["instant-local sends only the magic-code email (email-type magic-code)"])
    }
    let template = EmailTemplate(
      subject: body["subject"]?.stringValue ?? "", body: body["body"]?.stringValue ?? "",
      senderEmail: body["sender-email"]?.stringValue, senderName: body["sender-name"]?.stringValue)
    do {
      try catalog.setEmailTemplate(appID: appID, template)
    } catch let .invalidApp(message) {
      throw .validation("email-template", input: body, [message])
    } catch {
      throw .serverFault("The email template could not be saved: \(error)")
    }
    return ["id": .string(AuthSettingID.emailTemplate(appID))]
  }

  /// As the reference: `{}` whether or not the app had that template.
  func removeEmailTemplate(_ appID: String, id: String) throws(ServerError) -> JSON {
    guard id.lowercased() == AuthSettingID.emailTemplate(appID) else { return [:] }
    do {
      try catalog.removeEmailTemplate(appID: appID)
    } catch .invalidApp {
      // It had none.
    } catch {
      throw .serverFault("The email template could not be removed: \(error)")
    }
    return [:]
  }

  private func run<T>(_ body: () throws(InstantLocalError) -> T) throws(ServerError) -> T {
    do {
      return try body()
    } catch {
      throw .serverFault("The app's sign-in settings could not be read or written: \(error)")
    }
  }
}
