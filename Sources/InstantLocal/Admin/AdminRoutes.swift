import Foundation
import HTTPTypes
import Hummingbird
import InstantCore

/// The admin API under `/admin` (docs/admin.md): what `@instantdb/admin` and ``InstantAdmin``
/// call, with the app's admin token or an impersonation header, as the reference's
/// `admin/routes.clj` answers them.
extension HTTPRoutes {
  static let adminHeaders: [HTTPField.Name] = ["app-id", "as-email", "as-token", "as-guest"].compactMap { HTTPField.Name($0) }

  func registerAdmin(on router: Router<BasicRequestContext>) {
    router.post("/admin/query") { request, _ in
      await handle(request) { body throws(ServerError) in
        guard let query = body["query"], query != .null else {
          throw ServerError(.paramMissing, message: "Missing parameter: [\"body\" \"query\"]", hint: ["in": ["body", "query"]])
        }
        let call = try await dataCall(request)
        return try await call.app.adminQuery(query, as: call.actor, inference: body["inference?"]?.boolValue ?? false)
      }
    }
    router.post("/admin/transact") { request, _ in
      await handle(request) { body throws(ServerError) in
        guard let steps = body["steps"], steps != .null else {
          throw ServerError(.paramMissing, message: "Missing parameter: [\"body\" \"steps\"]", hint: ["in": ["body", "steps"]])
        }
        let call = try await dataCall(request)
        let strict = body["throw-on-missing-attrs?"]?.boolValue ?? false
        let txID = try await call.app.adminTransact(steps, throwOnMissingAttrs: strict, as: call.actor)
        return ["tx-id": .number(Double(txID))]
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
    for path in ["/admin/magic_code", "/admin/send_magic_code"] {
      router.post(RouterPath(path)) { request, _ in
        await handle(request) { body throws(ServerError) in
          let app = try await adminApp(request)
          return ["code": .string(await app.sendMagicCode(email: try Self.string(body, "email")))]
        }
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

  /// The user a `GET`/`DELETE /admin/users` names: `email`, `refresh_token` or `id`.
  static func userKey(_ request: Request) throws(ServerError) -> AppDatabase.UserKey {
    let query = request.uri.queryParameters
    if let email = query.get("email") { return .email(email) }
    if let token = query.get("refresh_token") { return .refreshToken(token) }
    if let id = query.get("id") { return .id(id) }
    throw .validation("users", input: .null, ["Please provide a user id, email, or refresh_token"])
  }
}
