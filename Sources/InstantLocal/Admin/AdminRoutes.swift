import Foundation
import HTTPTypes
import Hummingbird
import InstantCore
import InstantPermissions

/// The admin API under `/admin` (docs/admin.md): what `@instantdb/admin` and ``InstantAdmin``
/// call, with the app's admin token or an impersonation header, as the reference's
/// `admin/routes.clj` answers them.
extension HTTPRoutes {
  static let adminHeaders: [HTTPField.Name] = ["app-id", "as-email", "as-token", "as-guest"].compactMap { HTTPField.Name($0) }

  func registerAdmin(on router: Router<HTTPRequestContext>) {
    router.post("/admin/query") { request, _ in
      await handle(request) { body throws(ServerError) in
        let query = try Self.bodyParam(body, "query")
        let call = try await dataCall(request)
        return try await call.app.adminQuery(query, as: call.actor, inference: body["inference?"]?.boolValue ?? false)
      }
    }
    router.post("/admin/query_perms_check") { request, _ in
      await handle(request) { body throws(ServerError) in
        let call = try await permsCheckCall(request, body)
        let query = try Self.bodyParam(body, "query")
        guard case .object = query else { throw Self.bodyParamMalformed("query", query) }
        return try await call.app.adminQueryCheck(
          query, as: call.actor, rules: call.rules, inference: body["inference?"]?.boolValue ?? false)
      }
    }
    router.post("/admin/transact") { request, _ in
      await handle(request) { body throws(ServerError) in
        let steps = try Self.bodyParam(body, "steps")
        let call = try await dataCall(request)
        let strict = body["throw-on-missing-attrs?"]?.boolValue ?? false
        let txID = try await call.app.adminTransact(steps, throwOnMissingAttrs: strict, as: call.actor)
        return ["tx-id": .number(Double(txID))]
      }
    }
    router.post("/admin/transact_perms_check") { request, _ in
      await handle(request) { body throws(ServerError) in
        let call = try await permsCheckCall(request, body)
        let steps = try Self.bodyParam(body, "steps")
        return try await call.app.adminTransactCheck(
          steps, throwOnMissingAttrs: body["throw-on-missing-attrs?"]?.boolValue ?? false, as: call.actor,
          rules: call.rules, commit: body["dangerously-commit-tx"]?.boolValue ?? false)
      }
    }
    router.get("/admin/users") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let app = try await adminApp(request)
        return await app.adminGetUser(try Self.userKey(request))
      }
    }
    router.delete("/admin/users") { request, _ in
      await handle(nil) { _ throws(ServerError) in
        let app = try await adminApp(request)
        return try await app.adminDeleteUser(try Self.userKey(request))
      }
    }
    router.post("/admin/refresh_tokens") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await adminApp(request)
        return try await app.adminCreateToken(
          email: body["email"]?.stringValue, id: body["id"]?.stringValue, extraFields: body["extra-fields"])
      }
    }
    router.post("/admin/sign_out") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await adminApp(request)
        try await app.adminSignOut(
          id: body["id"]?.stringValue, email: body["email"]?.stringValue, refreshToken: body["refresh_token"]?.stringValue)
        return ["ok": true]
      }
    }
    // `magic_code` makes a code for the admin to pass on (no email, no limit); `send_magic_code`
    // also emails it, counted against the email's hour, as the reference does.
    router.post("/admin/magic_code") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await adminApp(request)
        return ["code": .string(try await app.issueMagicCode(email: try Self.string(body, "email"), limited: false))]
      }
    }
    router.post("/admin/send_magic_code") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await adminApp(request)
        let email = try Self.string(body, "email")
        let code = try await app.issueMagicCode(email: email, limited: true)
        try await mailer.deliver(code: code, to: AppDatabase.normalize(email), appID: app.appID, appTitle: app.title)
        return ["code": .string(code)]
      }
    }
    router.post("/admin/verify_magic_code") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await adminApp(request)
        return try await app.verifyMagicCode(
          email: try Self.string(body, "email"), code: try Self.string(body, "code"),
          guestToken: body["refresh-token"]?.stringValue, extraFields: body["extra-fields"])
      }
    }
    router.post("/admin/sign_in_guest") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await adminApp(request)
        return try await app.signInGuest(extraFields: body["extra-fields"])
      }
    }
  }

  /// The app of an admin request (`app-id` header, else `app_id` query parameter).
  static func appID(_ request: Request) throws(ServerError) -> String {
    guard let raw = request.headers[HTTPField.Name("app-id")!] ?? request.uri.queryParameters.get("app_id") else {
      throw ServerError(
        .paramMissing, message: "Missing parameter: [\"headers\" \"app-id\"]",
        hint: ["in": ["headers", "app-id"], "possible-ins": [["query-params", "app_id"]]])
    }
    guard let appID = AppRegistry.normalizeAppID(raw) else {
      throw ServerError(
        .paramMalformed, message: "Malformed parameter: [\"headers\" \"app-id\"]",
        hint: ["in": ["headers", "app-id"], "original-input": .string(raw)])
    }
    return appID
  }

  /// An app whose admin token the request carries (the user, token and magic-code routes).
  func adminApp(_ request: Request) async throws(ServerError) -> AppDatabase {
    let appID = try Self.appID(request)
    try await registry.authorizeAdmin(appID: appID, authorization: request.headers[.authorization])
    return try await load(appID)
  }

  /// A query or transaction's app and whom it acts as.
  func dataCall(_ request: Request) async throws(ServerError) -> (app: AppDatabase, actor: Asker) {
    let appID = try Self.appID(request)
    func header(_ name: String) -> String? { request.headers[HTTPField.Name(name)!] }
    let actor = try await registry.actor(
      appID: appID, authorization: request.headers[.authorization], asToken: header("as-token"),
      asEmail: header("as-email"), asGuest: header("as-guest"))
    return (try await load(appID), actor)
  }

  /// A permission-debugging request (`query_perms_check`, `transact_perms_check`), checked as the
  /// reference checks it: the admin token whatever the impersonation, then an impersonation
  /// header (the admin bypasses rules, so there is nothing to test), then `rules-override`
  /// (refused as a push of those rules would be), `ip-override` and `origin-override`.
  func permsCheckCall(_ request: Request, _ body: JSON) async throws(ServerError)
    -> (app: AppDatabase, actor: Asker, rules: PermissionRules?)
  {
    try await registry.authorizeAdmin(appID: try Self.appID(request), authorization: request.headers[.authorization])
    let call = try await dataCall(request)
    var actor = call.actor
    if actor.isAdmin { throw .validation("non-admin", input: "non-admin", ["Cannot test perms as admin"]) }
    var rules: PermissionRules?
    if let code = body["rules-override"], code != .null { rules = try PermissionRules(validating: code) }
    if let ip = try Self.nonBlank(body, "ip-override") { actor.peer.ip = ip }
    if let origin = try Self.nonBlank(body, "origin-override") { actor.peer.origin = origin }
    return (call.app, actor, rules)
  }

  /// A required body parameter: `param-missing` when absent or `null`.
  static func bodyParam(_ body: JSON, _ key: String) throws(ServerError) -> JSON {
    guard let value = body[key], value != .null else {
      throw ServerError(.paramMissing, message: "Missing parameter: [\"body\" \"\(key)\"]", hint: ["in": ["body", .string(key)]])
    }
    return value
  }

  static func bodyParamMalformed(_ key: String, _ value: JSON) -> ServerError {
    ServerError(
      .paramMalformed, message: "Malformed parameter: [\"body\" \"\(key)\"]",
      hint: ["in": ["body", .string(key)], "original-input": value])
  }

  /// An optional body string, trimmed (a number reads as its text); blank or another type is
  /// `param-malformed`, as the reference's `coerce-non-blank-str` refuses it.
  static func nonBlank(_ body: JSON, _ key: String) throws(ServerError) -> String? {
    switch body[key] {
    case nil, .null?: return nil
    case let .number(n)?: return n.rounded() == n ? String(Int64(n)) : String(n)
    case let .string(s)? where !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
      return s.trimmingCharacters(in: .whitespacesAndNewlines)
    case let value?: throw bodyParamMalformed(key, value)
    }
  }

  /// The user a `GET`/`DELETE /admin/users` names: `email`, `refresh_token` or `id`.
  static func userKey(_ request: Request) throws(ServerError) -> AppDatabase.UserKey {
    let query = request.uri.queryParameters
    if let email = query.get("email") { return .email(email) }
    if let token = query.get("refresh_token") { return .refreshToken(token) }
    if let id = query.get("id") { return .id(id) }
    throw .validation("users", input: .null, ["Please provide a user id, email, or refresh_token"])
  }
}
