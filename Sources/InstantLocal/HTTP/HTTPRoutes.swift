import Foundation
import Hummingbird
import InstantCore
import Logging

/// The HTTP side of the server: auth endpoints (docs/protocol.md, "Auth over HTTP"), schema pull
/// (docs/protocol.md, "Schema pull") and a health check. Every body is JSON; failures are `{type, message, hint}`
/// with status 400 (500 for server faults), as the reference's `wrap-errors` produces.
struct HTTPRoutes: Sendable {
  let registry: AppRegistry
  let logger: Logger

  /// The largest JSON body accepted: the server's `maxMessageBytes`, the same bound a socket
  /// message has (an admin transaction carries what a client's would).
  let maxBodyBytes: Int

  /// How an ID token signs in.
  let idTokens: IDTokenSignIn

  /// How magic codes reach their email.
  let mailer: MagicCodeMailer

  /// What `GET /metrics` shows.
  let metrics: ServerMetrics

  /// The SHA-256 of the bearer token `GET /metrics` needs; `nil` turns the route off.
  var metricsTokenSHA256: String?

  /// A `subscribe-query` stream's bound on unsent messages (``InstantLocalConfiguration/maxQueuedBytes``).
  var maxQueuedBytes = 64 << 20

  /// How often an idle `subscribe-query` stream sends a comment, so a reader that went away is
  /// noticed (``InstantLocalConfiguration/pingInterval``).
  var streamHeartbeat: Duration = .seconds(15)

  /// The `subscribe-query` streams open now, which the server ends when it stops.
  var openStreams = OpenStreams()

  /// What a client address and an app may ask (``ServerLimits``).
  var limits = RequestLimits.unlimited

  /// The OAuth web flow.
  let oauth: OAuthWebFlow

  func register(on router: Router<HTTPRequestContext>) {
    router.add(middleware: ConnectionCloseMiddleware())
    router.add(middleware: UnservedRouteMiddleware())
    router.add(
      middleware: CORSMiddleware(
        allowOrigin: .all,
        allowHeaders: [.accept, .authorization, .contentType, .origin] + Self.adminHeaders + Self.storageHeaders,
        allowMethods: [.get, .post, .put, .delete, .options]))
    router.get("/health") { _, _ in Self.json(["status": "ok"]) }
    // The reference's health check: its write-ahead log there, the data file here.
    router.get("/health/system") { _, _ in
      registry.storage.isReadable() ? Self.json(["wal": "ok"]) : Self.json(["wal": "error"], status: .internalServerError)
    }
    router.get("/metrics") { request, _ in
      guard let expected = metricsTokenSHA256 else {
        return Self.json(["message": "metrics are off: start the server with --metrics-token-file"], status: .notFound)
      }
      let given = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
      guard let given, AdminToken.matches(given, sha256: expected) else {
        return Self.json(["message": "GET /metrics needs the metrics token (Authorization: Bearer …)"], status: .unauthorized)
      }
      let page = metrics.page(await registry.metricsSnapshot())
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: page)))
    }
    router.post("/runtime/auth/sign_in_guest") { request, context in
      let client = limits.addresses.client(request, context)
      return await handle(request) { body throws(ServerError) in
        let app = try await signInApp(body, key: "app-id", client: client)
        let user = try await app.signInGuest(extraFields: body["extra-fields"])
        metrics.signedIn(.guest)
        return user
      }
    }
    router.post("/runtime/auth/send_magic_code") { request, context in
      let client = limits.addresses.client(request, context)
      return await handle(request) { body throws(ServerError) in
        let app = try await signInApp(body, key: "app-id", client: client)
        let email = try Self.string(body, "email")
        let code = try await app.issueMagicCode(email: email, limited: true)
        try await mailer.deliver(code: code, to: AppDatabase.normalize(email), appID: app.appID, appTitle: app.title)
        return ["sent": true]
      }
    }
    router.post("/runtime/auth/verify_magic_code") { request, context in
      let client = limits.addresses.client(request, context)
      return await handle(request) { body throws(ServerError) in
        let app = try await signInApp(body, key: "app-id", client: client)
        let email = try Self.string(body, "email")
        let code = try Self.string(body, "code")
        let user = try await app.verifyMagicCode(
          email: email, code: code, guestToken: body["refresh-token"]?.stringValue, extraFields: body["extra-fields"])
        metrics.signedIn(.magicCode)
        return user
      }
    }
    router.post("/runtime/auth/verify_refresh_token") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await app(body, key: "app-id")
        return try await app.verifyRefreshToken(try Self.string(body, "refresh-token"))
      }
    }
    router.post("/runtime/oauth/id_token") { request, context in
      let client = limits.addresses.client(request, context)
      return await handle(request) { body throws(ServerError) in
        let app = try await signInApp(body, key: "app_id", client: client)
        let email = try await idTokens.email(
          appID: app.appID, clientName: try Self.string(body, "client_name"), token: try Self.string(body, "id_token"),
          nonce: body["nonce"]?.stringValue)
        let user = try await app.signIn(
          email: AppDatabase.normalize(email), guestToken: body["refresh_token"]?.stringValue, extraFields: body["extra_fields"])
        metrics.signedIn(.idToken)
        return user
      }
    }
    router.post("/runtime/signout") { request, _ in
      await handle(request) { body throws(ServerError) in
        let app = try await app(body, key: "app_id")
        try await app.signOut(try Self.string(body, "refresh_token"))
        return [:]
      }
    }
    registerOAuth(on: router)
    registerAdmin(on: router)
    registerAdminInfo(on: router)
    registerSubscribeQuery(on: router)
    registerDash(on: router)
    registerSchemaPush(on: router)
    registerAuthSettings(on: router)
    registerStorage(on: router)
    registerLegacyStorage(on: router)
  }

  /// Runs `body` on the request's JSON object and turns the outcome into a response.
  func handle(
    _ request: Request?, _ body: (JSON) async throws(ServerError) -> JSON
  ) async -> Response {
    do throws(ServerError) {
      return Self.json(try await body(request == nil ? [:] : try await jsonBody(request!)))
    } catch {
      return failure(error)
    }
  }

  /// The request's body, a JSON object of at most ``maxBodyBytes``.
  func jsonBody(_ request: Request) async throws(ServerError) -> JSON {
    let buffer: ByteBuffer
    do {
      buffer = try await request.body.collect(upTo: maxBodyBytes)
    } catch {
      throw ServerError(
        .paramMalformed,
        message: "The request body is larger than \(maxBodyBytes) bytes; start instant-local with a larger --max-message-bytes.")
    }
    let input: JSON
    do {
      input = try JSON.parse(bytes: buffer.readableBytesView)
    } catch {
      throw ServerError(.paramMalformed, message: "Malformed JSON body: \(error.description)")
    }
    guard case .object = input else {
      throw ServerError(.paramMalformed, message: "The request body must be a JSON object.")
    }
    return input
  }

  /// An error's response (a server fault is logged).
  func failure(_ error: ServerError) -> Response {
    if error.isFault { logger.error("\(error)") }
    var response = Self.json(error.httpBody, status: .init(code: error.status))
    if error.status == 429, let seconds = error.hint["retry-after"]?.numberValue {
      response.headers[.retryAfter] = String(Int(seconds))
    }
    return response
  }

  func app(_ body: JSON, key: String) async throws(ServerError) -> AppDatabase {
    let raw = try Self.string(body, key)
    guard let appID = AppRegistry.normalizeAppID(raw) else { throw .paramMalformed(key, input: .string(raw)) }
    return try await load(appID)
  }

  /// The app a sign-in request names, once the client's address and the app are within their
  /// sign-in limits (else 429).
  func signInApp(_ body: JSON, key: String, client: String) async throws(ServerError) -> AppDatabase {
    try await signInApp(id: try Self.string(body, key), key: key, client: client)
  }

  /// The app a sign-in request names by `id` (absent: `param-missing` on `key`), once within limits.
  func signInApp(id raw: String?, key: String, client: String) async throws(ServerError) -> AppDatabase {
    guard let raw else {
      try limits.admitSignIn(from: client, appID: nil)
      throw .paramMissing(key)
    }
    guard let appID = AppRegistry.normalizeAppID(raw) else {
      try limits.admitSignIn(from: client, appID: nil)
      throw .paramMalformed(key, input: .string(raw))
    }
    try limits.admitSignIn(from: client, appID: appID)
    return try await load(appID)
  }

  func load(_ appID: String) async throws(ServerError) -> AppDatabase {
    try await registry.app(appID)
  }

  static func string(_ body: JSON, _ key: String) throws(ServerError) -> String {
    guard let raw = body[key], raw != .null else { throw .paramMissing(key) }
    guard let value = raw.stringValue else { throw .paramMalformed(key, input: raw) }
    return value
  }

  static func json(_ value: JSON, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(string: value.serialized())))
  }
}
