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
  /// that matters.
  static func instantLocal(
    webSocketRouter: Router<SessionRequestContext>, configuration: HTTP1WebSocketUpgradeChannel.Configuration
  ) -> HTTPServerBuilder {
    let webSocketResponder = webSocketRouter.buildResponder()
    return .init { responder in
      HTTP1WebSocketUpgradeChannel(
        responder: closingConnection(after: responder), webSocketResponder: webSocketResponder,
        configuration: configuration)
    }
  }

  /// Answers the request, then ends the connection: Hummingbird closes a connection whose
  /// responder throws, after the response already written.
  private static func closingConnection(
    after responder: @escaping HTTPChannelHandler.Responder
  ) -> HTTPChannelHandler.Responder {
    { request, writer, channel in
      try await responder(request, writer, channel)
      throw ResponseWritten()
    }
  }
}

/// Thrown after a response, to make Hummingbird close its connection.
private struct ResponseWritten: Error {}
