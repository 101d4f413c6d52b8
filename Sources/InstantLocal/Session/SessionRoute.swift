import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

/// `GET /runtime/session`: one ``SessionConnection`` per socket, fed by the socket's frames, and a
/// writer task draining the session's ``SessionSink`` in order.
struct SessionRoute: Sendable {
  let registry: AppRegistry
  let maxMessageBytes: Int
  /// The largest frame the socket accepts; larger frames close the socket.
  let transportLimit: Int
  /// See ``InstantLocalConfiguration/presenceInterval``.
  let presenceInterval: Duration
  /// See ``InstantLocalConfiguration/maxQueuedBytes``.
  let maxQueuedBytes: Int
  /// Counts the sockets closed for a slow reader.
  var metrics: ServerMetrics?
  /// Connection caps and the transaction rate (``ServerLimits``).
  var limits = RequestLimits.unlimited
  /// The server's clock, which paces presence.
  let clock: ServerClock
  let logger: Logger

  func router() -> Router<SessionRequestContext> {
    let router = Router(context: SessionRequestContext.self)
    router.ws("/runtime/session") { inbound, outbound, context in
      let channel = context.requestContext.channel
      let request = context.request
      let peer = SessionPeer(
        ip: limits.addresses.client(
          peer: channel.remoteAddress?.ipAddress ?? "", forwardedFor: request.headers[values: .xForwardedFor]),
        origin: request.headers[.origin] ?? "")
      if let refusal = limits.connections.open(peer.ip) {
        logger.notice("refused a connection", metadata: ["peer": "\(peer.ip)", "reason": "\(refusal.reason)"])
        try await outbound.close(.unknown(Self.tryAgainLater), reason: refusal.reason)
        return
      }
      defer { limits.connections.close(peer.ip) }
      try await serve(inbound, outbound, channel: channel, peer: peer)
    }
    return router
  }

  private func serve(
    _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, channel: any Channel, peer: SessionPeer
  ) async throws {
    let logger = logger
    let maxQueuedBytes = maxQueuedBytes
    let metrics = metrics
    let sink = SessionSink(
      presencePacing: (presenceInterval, clock.monotonic), maxQueuedBytes: maxQueuedBytes
    ) { queued in
      // The socket is closed outright: a close frame would wait behind what the reader is not
      // reading. The session then ends as after any disconnect, and the client reconnects.
      logger.warning(
        "a session's reader is too slow: closing the socket",
        metadata: ["peer": "\(peer.ip)", "queued_bytes": "\(queued)", "max_queued_bytes": "\(maxQueuedBytes)"])
      metrics?.slowReaderClosed()
      channel.close(promise: nil)
    }
    let connection = SessionConnection(
      registry: registry, sink: sink, maxMessageBytes: maxMessageBytes, peer: peer, limits: limits, logger: logger)
    // Frames are read as they come and handled in batches of what arrived meanwhile (see
    // `SessionConnection.receive(batch:)`); at most `maxQueuedFrames` wait, then reading pauses.
    let frames = BatchQueue<String>(limit: Self.maxQueuedFrames)
    let sessionID = connection.id
    let handler = Task {
      while let batch = await frames.next() { await connection.receive(batch: batch) }
      await connection.close()
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        while let frames = await sink.nextFrames() {
          for text in frames { try await outbound.write(.text(text)) }
        }
      }
      do {
        for try await message in inbound.messages(maxSize: transportLimit) {
          switch message {
          case let .text(text): await frames.push(text)
          case let .binary(buffer): await frames.push(String(buffer: buffer))
          }
        }
      } catch {
        logger.debug("session ended", metadata: ["session_id": "\(sessionID)", "error": "\(error)"])
      }
      frames.finish()
      await handler.value
      sink.finish()
      try await group.waitForAll()
    }
  }

  static let maxQueuedFrames = 256
  /// The WebSocket close code "try again later" (RFC 6455's registry), for a connection over a cap.
  static let tryAgainLater: UInt16 = 1013
}
