import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// The end of an open WebSocket's pipeline: text frames go to `inbound`, pings are answered, a
/// close from the server is echoed, and a ping of ours left unanswered for a whole
/// `pingInterval` closes the socket.
final class SocketHandler: ChannelInboundHandler, @unchecked Sendable {
  // Safety: `channel` is behind a lock; `awaitingPong`, `closing` and `pinger` are only touched on
  // the channel's event loop (handler callbacks and tasks scheduled on that loop).
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let inbound: AsyncThrowingStream<String, any Error>.Continuation
  private let pingInterval: TimeAmount
  private let channel = NIOLockedValueBox<(any Channel)?>(nil)
  private let failure = NIOLockedValueBox<(any Error)?>(nil)
  private var awaitingPong = false
  private var closing = false
  private var pinger: RepeatedTask?

  init(inbound: AsyncThrowingStream<String, any Error>.Continuation, pingInterval: TimeAmount) {
    self.inbound = inbound
    self.pingInterval = pingInterval
  }

  /// Writes a text frame (masked, as a client must); dropped once the socket has closed.
  func send(_ text: String) {
    write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
  }

  /// Ends the socket with `error`: the message stream throws it.
  func fail(_ error: any Error) {
    failure.withLockedValue { $0 = $0 ?? error }
    inbound.finish(throwing: error)
    channel.withLockedValue { $0 }?.close(promise: nil)
  }

  /// Why ``fail(_:)`` ended the socket, if it did.
  var failedWith: (any Error)? { failure.withLockedValue { $0 } }

  /// Sends a close frame, then waits for the server to close the socket, at most `grace`.
  func close(within grace: TimeAmount) async {
    guard let channel = channel.withLockedValue({ $0 }) else { return }
    channel.eventLoop.execute {
      guard !self.closing else { return }
      self.closing = true
      var code = channel.allocator.buffer(capacity: 2)
      code.write(webSocketErrorCode: .normalClosure)
      channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code), promise: nil)
    }
    let forced = channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
    // A close that fails still leaves the channel closed; why the socket ended is in `failedWith`.
    try? await channel.closeFuture.get()
    forced.cancel()
  }

  private func write(_ frame: WebSocketFrame) {
    channel.withLockedValue { $0 }?.writeAndFlush(frame, promise: nil)
  }

  /// Called with the channel as soon as it exists, before the handshake: `fail` can then end a
  /// handshake that takes too long, and the message stream ends whenever the channel closes.
  func attach(_ channel: any Channel) {
    self.channel.withLockedValue { $0 = channel }
    channel.closeFuture.whenComplete { _ in self.inbound.finish() }
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let channel = context.channel
    pinger = context.eventLoop.scheduleRepeatedTask(initialDelay: pingInterval, delay: pingInterval) { _ in
      guard !self.closing else { return }
      if self.awaitingPong {
        self.fail(WebSocketTransportError("the server did not answer a ping within \(self.pingInterval)"))
      } else {
        self.awaitingPong = true
        self.write(WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: channel.allocator.buffer(capacity: 0)))
      }
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    pinger?.cancel()
    pinger = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    awaitingPong = false  // anything from the server shows the socket is alive
    switch frame.opcode {
    case .text:
      var payload = frame.unmaskedData
      inbound.yield(payload.readString(length: payload.readableBytes) ?? "")
    case .ping:
      guard !closing else { return }
      let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
      context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
    case .connectionClose:
      if !closing {
        closing = true
        var echo = frame.unmaskedData
        let code = echo.readSlice(length: min(2, echo.readableBytes)) ?? context.channel.allocator.buffer(capacity: 0)
        let reply = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in channel.close(promise: nil) }
      } else {
        context.close(promise: nil)
      }
    default:
      break  // binary frames carry nothing for this client; pongs only mark liveness
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    inbound.finish(throwing: error)
    context.close(promise: nil)
  }
}
