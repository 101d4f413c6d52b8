import HummingbirdCore
import InstantCore
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Answers a request that cannot be parsed as HTTP (a header line without a colon, a broken
/// request line) with `400` and a JSON reason, then closes the connection.
///
/// Hummingbird answers a parse error itself only once a request has been read; the first request
/// of a connection is read while the WebSocket upgrade is negotiated, where a parse error answers
/// nothing and leaves the connection open for as long as the client waits. This handler sits just
/// after NIO's request decoder until the first request head has passed it.
final class BadRequestAnswer: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  /// Set once this connection was answered `400`.
  let answered = NIOLockedValueBox(false)

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    context.fireChannelRead(data)
    // A head was parsed: later errors (a broken body) come after Hummingbird has the request.
    if case .head = part { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    answered.withLockedValue { $0 = true }
    let body = ByteBuffer(string: Self.body(error))
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "Content-Length", value: String(body.readableBytes))
    headers.add(name: "Connection", value: "close")
    context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
  }

  /// The server's error body, as every failure of this server is answered.
  static func body(_ error: HTTPParserError) -> String {
    let message = "The request is not valid HTTP/1.1 (\(error)): each header line is `Name: value`, the request line `METHOD /path HTTP/1.1`."
    return ServerError(.validationFailed, message: message, hint: [:]).httpBody.serialized()
  }
}

/// The server's connections: HTTP/1.1 with WebSocket upgrades, each with a ``BadRequestAnswer``
/// after its request decoder.
struct AnsweringBadRequests: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value
  let inner: HTTP1WebSocketUpgradeChannel
  /// Each connection's flag from ``BadRequestAnswer/answered``, from its setup to its handling.
  private let flags = NIOLockedValueBox<[ObjectIdentifier: NIOLockedValueBox<Bool>]>([:])

  init(inner: HTTP1WebSocketUpgradeChannel) { self.inner = inner }

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    inner.setup(channel: channel, logger: logger).flatMapThrowing { [flags] value in
      let operations = channel.pipeline.syncOperations
      let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      let answer = BadRequestAnswer()
      try operations.addHandler(answer, position: .after(decoder))
      flags.withLockedValue { $0[ObjectIdentifier(channel)] = answer.answered }
      return value
    }
  }

  /// Hummingbird logs the end of an upgrade negotiation cut short as an error; after a `400` to
  /// bytes that were not HTTP it is the client's mistake, so it is logged at debug instead.
  func handle(value: Value, logger: Logger) async {
    let answered = flags.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(value.channel)) }
    let logger = answered.map { flag in DemotingLogHandler.demoting(logger) { _ in flag.withLockedValue { $0 } } } ?? logger
    await inner.handle(value: value, logger: logger)
  }
}
