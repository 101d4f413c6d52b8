import Foundation
import HTTPTypes
import Hummingbird
import InstantCore
import OrderedCollections

/// The OAuth web flow's routes (``OAuthWebFlow``): start, the provider's callback, the code
/// exchange, and the discovery document Expo's `AuthSession` reads.
extension HTTPRoutes {
  func registerOAuth(on router: Router<HTTPRequestContext>) {
    router.get("/runtime/oauth/start") { request, context in await start(request, context, pathAppID: nil) }
    router.get("/runtime/:appId/oauth/start") { request, context in
      await start(request, context, pathAppID: context.parameters.get("appId"))
    }
    router.get("/runtime/oauth/callback") { request, _ in await callback(request) }
    router.post("/runtime/oauth/callback") { request, _ in await callback(request) }
    router.post("/runtime/oauth/token") { request, context in await token(request, context, pathAppID: nil) }
    router.post("/runtime/:appId/oauth/token") { request, context in
      await token(request, context, pathAppID: context.parameters.get("appId"))
    }
    router.get("/runtime/:appId/.well-known/openid-configuration") { _, context in
      do throws(ServerError) {
        let appID = try Self.pathAppID(context)
        guard let base = oauth.publicBase() else { throw .serverFault("the server does not know its address yet") }
        let runtime = base.appendingPathComponent("runtime/\(appID)")
        return Self.json([
          "issuer": .string(base.absoluteString),
          "authorization_endpoint": .string(runtime.appendingPathComponent("oauth/start").absoluteString),
          "token_endpoint": .string(runtime.appendingPathComponent("oauth/token").absoluteString),
        ])
      } catch {
        return failure(error)
      }
    }
  }

  private func start(_ request: Request, _ context: HTTPRequestContext, pathAppID: String?) async -> Response {
    let client = limits.addresses.client(request, context)
    let params = Self.query(request)
    do throws(ServerError) {
      let app = try await signInApp(id: pathAppID ?? params["app_id"], key: "app_id", client: client)
      let start = try await oauth.start(params, appID: app.appID)
      return Response(status: .found, headers: [.location: start.location.absoluteString, .setCookie: start.setCookie])
    } catch {
      return failure(error)
    }
  }

  private func callback(_ request: Request) async -> Response {
    var params = Self.query(request)
    if request.method == .post, let form = try? await formFields(request) { params.merge(form) { _, posted in posted } }
    // The flow's cookie is single use: it goes whatever the outcome.
    let expired = "\(OAuthWebFlow.cookieName)=; Path=/runtime/oauth; Max-Age=0; HttpOnly"
    switch await oauth.callback(params, cookie: request.headers[.cookie]) {
    case let .failure(error):
      var response = failure(error)
      response.headers[.setCookie] = expired
      return response
    case let .app(url):
      if let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
        return Response(status: .found, headers: [.location: url.absoluteString, .setCookie: expired])
      }
      // A native app's scheme: a page that opens it (browsers do not follow a redirect to one from
      // a form post in every case), with a link for when they do not.
      return Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .setCookie: expired, .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: Self.openAppPage(url))))
    }
  }

  private func token(_ request: Request, _ context: HTTPRequestContext, pathAppID: String?) async -> Response {
    let client = limits.addresses.client(request, context)
    do throws(ServerError) {
      var params = Self.query(request)
      var body: JSON = [:]
      // Fields come from the query, a form or a JSON body, as on the reference; a JSON body that
      // does not parse is refused by name rather than read as no fields.
      let contentType = request.headers[.contentType] ?? ""
      if contentType.hasPrefix("application/x-www-form-urlencoded") {
        params.merge(try await formFields(request)) { _, posted in posted }
      } else if contentType.hasPrefix("application/json") {
        body = try await jsonBody(request)
        for (key, value) in body.objectValue ?? [:] { if let text = value.stringValue { params[key] = text } }
      }
      let app = try await signInApp(id: pathAppID ?? params["app_id"], key: "app_id", client: client)
      let email = try await oauth.redeem(params, appID: app.appID, origin: request.headers[.origin])
      var answer = try await app.signIn(
        email: AppDatabase.normalize(email), guestToken: params["refresh_token"], extraFields: body["extra_fields"]
      ).objectValue ?? [:]
      answer["refresh_token"] = answer["user"]?["refresh_token"] ?? .null
      metrics.signedIn(.oauth)
      return Self.json(.object(answer))
    } catch {
      return failure(error)
    }
  }

  /// The request's query string, decoded.
  static func query(_ request: Request) -> [String: String] {
    FormEncoding.decode(request.uri.query ?? "")
  }

  /// A form-encoded body's fields.
  private func formFields(_ request: Request) async throws(ServerError) -> [String: String] {
    do {
      let buffer = try await request.body.collect(upTo: maxBodyBytes)
      return FormEncoding.decode(String(buffer: buffer))
    } catch {
      throw ServerError(.paramMalformed, message: "The request body is larger than \(maxBodyBytes) bytes.")
    }
  }

  /// The page that sends a browser on to a native app's URL.
  static func openAppPage(_ url: URL) -> String {
    let href = url.absoluteString.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    return """
      <!doctype html>
      <html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=\(href)">
      <title>Signed in</title></head>
      <body><p>Signed in. <a href="\(href)">Open the app</a>.</p></body></html>
      """
  }
}
