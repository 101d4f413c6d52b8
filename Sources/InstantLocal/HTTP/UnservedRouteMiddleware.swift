import Hummingbird
import InstantCore

/// A request no route serves: `404` with a JSON body naming the method and path, where the
/// reference answers `{"message": "Oops! We couldn't match this route."}`. A client that reads the
/// body's `message` (InstantDB's Python SDK raises it) then says what is missing, for example a
/// webhooks route instant-local does not have.
struct UnservedRouteMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound {
      let message = "instant-local does not serve \(request.method.rawValue) \(request.uri.path) (docs/instant-local.md lists what it serves)"
      return HTTPRoutes.json(ServerError("not-found", message: message, hint: [:], status: 404).httpBody, status: .notFound)
    }
  }
}
