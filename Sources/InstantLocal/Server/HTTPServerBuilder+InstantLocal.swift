import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket

extension HTTPServerBuilder {
  /// HTTP/1.1 with WebSocket upgrades, where every plain HTTP response ends its connection.
  ///
  /// NIO's upgrade handler, and so Hummingbird, can only upgrade the *first* request of a
  /// connection; an upgrade that arrives on a connection kept alive after an HTTP request is
  /// answered `307 Temporary Redirect` + `Connection: close`, which WebSocket clients treat as a
  /// failed handshake. InstantDB's JS client under Node signs in over HTTP and then opens its
  /// WebSocket through the same connection pool, so it would land there. Closing each HTTP
  /// connection after its response (``ConnectionCloseMiddleware`` announces it) makes every
  /// upgrade the first request of a fresh connection. On loopback the extra connects cost nothing
  /// that matters. A request that is not valid HTTP gets a `400` (``BadRequestAnswer``).
  static func instantLocal(
    webSocketRouter: Router<SessionRequestContext>, configuration: HTTP1WebSocketUpgradeChannel.Configuration
  ) -> HTTPServerBuilder {
    let webSocketResponder = webSocketRouter.buildResponder()
    return .init { responder in
      AnsweringBadRequests(
        inner: HTTP1WebSocketUpgradeChannel(
          responder: closingConnection(after: responder), webSocketResponder: webSocketResponder,
          configuration: configuration))
    }
  }

  /// Answers the request, then ends the connection: Hummingbird closes a connection whose
  /// responder throws, after the response already written.
  private static func closingConnection(
    after responder: @escaping HTTPChannelHandler.Responder
  ) -> HTTPChannelHandler.Responder {
    { request, writer, channel in
      // A client that asks before sending a large body (curl, and so URLSession on Linux, do for
      // uploads over 1 MiB) would otherwise wait a second for the go-ahead.
      if request.headers[.expect]?.lowercased() == "100-continue" {
        try await writer.writeInformationalHead(HTTPResponse(status: .continue))
      }
      try await responder(request, writer, channel)
      // Closing the output first lets what is still queued of a large response (a file) leave:
      // it waits for the queued writes, where tearing the connection down drops them.
      try? await channel.close(mode: .output).get()
      throw ResponseWritten()
    }
  }
}

/// Thrown after a response, to make Hummingbird close its connection.
private struct ResponseWritten: Error {}
