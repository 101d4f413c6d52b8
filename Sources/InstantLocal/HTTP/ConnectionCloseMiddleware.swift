import Hummingbird

/// Adds `Connection: close` to every HTTP response, so clients do not keep the connection for a
/// later request: the server ends it after the response (see
/// `HTTPServerBuilder.instantLocal(webSocketRouter:configuration:)`).
struct ConnectionCloseMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = try error.response(from: request, context: context)
    }
    response.headers[.connection] = "close"
    return response
  }
}
