import Hummingbird
import HummingbirdWebSocket
import Logging

/// `GET /runtime/session`: one ``SessionConnection`` per socket, fed by the socket's frames, and a
/// writer task draining the session's ``SessionSink`` in order.
struct SessionRoute: Sendable {
  let registry: AppRegistry
  let maxMessageBytes: Int
  /// The largest frame the socket accepts; larger frames close the socket.
  let transportLimit: Int
  let logger: Logger

  func router() -> Router<BasicWebSocketRequestContext> {
    let router = Router(context: BasicWebSocketRequestContext.self)
    router.ws("/runtime/session") { inbound, outbound, _ in
      try await serve(inbound, outbound)
    }
    return router
  }

  private func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
    let sink = SessionSink()
    let connection = SessionConnection(registry: registry, sink: sink, maxMessageBytes: maxMessageBytes, logger: logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        while let frames = await sink.nextFrames() {
          for text in frames { try await outbound.write(.text(text)) }
        }
      }
      do {
        for try await message in inbound.messages(maxSize: transportLimit) {
          switch message {
          case let .text(text): await connection.receive(text)
          case let .binary(buffer): await connection.receive(String(buffer: buffer))
          }
        }
      } catch {
        logger.debug("session \(connection.id) ended: \(error)")
      }
      await connection.close()
      sink.finish()
      try await group.waitForAll()
    }
  }
}
