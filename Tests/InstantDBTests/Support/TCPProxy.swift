import NIOCore
import NIOPosix

/// A TCP proxy on loopback between clients and a server, for fault injection: it forwards bytes
/// both ways and can cut every open connection at once.
final class TCPProxy: Sendable {
  let port: Int
  private let channel: any Channel
  private let open: Locked<[ObjectIdentifier: any Channel]>

  private init(port: Int, channel: any Channel, open: Locked<[ObjectIdentifier: any Channel]>) {
    self.port = port
    self.channel = channel
    self.open = open
  }

  static func start(to targetPort: Int) async throws -> TCPProxy {
    let open = Locked<[ObjectIdentifier: any Channel]>([:])
    let group = MultiThreadedEventLoopGroup.singleton
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { inbound in
        ClientBootstrap(group: inbound.eventLoop)
          .connect(host: "127.0.0.1", port: targetPort)
          .flatMap { outbound in
            open.withLock {
              $0[ObjectIdentifier(inbound)] = inbound
              $0[ObjectIdentifier(outbound)] = outbound
            }
            let (a, b) = Glue.pair()
            // The accepted channel registers (and starts reading) only once this future
            // completes, so no byte arrives before the glue is in place.
            return inbound.pipeline.addHandler(a).and(outbound.pipeline.addHandler(b)).map { _ in }
          }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return TCPProxy(port: channel.localAddress!.port!, channel: channel, open: open)
  }

  /// Closes every connection through the proxy (both sides), as a dropped network would.
  func cutAll() {
    let channels = open.withLock { all in
      defer { all = [:] }
      return Array(all.values)
    }
    for channel in channels { channel.close(promise: nil) }
  }

  func stop() async {
    cutAll()
    try? await channel.close()
  }
}

/// Forwards reads of one channel to its partner and closes the partner when it closes.
private final class Glue: ChannelDuplexHandler, @unchecked Sendable {
  // Safety: each handler is only used on its channel's event loop; the partner link is set once
  // before either channel reads.
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private var partner: Glue?
  private var context: ChannelHandlerContext?

  static func pair() -> (Glue, Glue) {
    let a = Glue()
    let b = Glue()
    a.partner = b
    b.partner = a
    return (a, b)
  }

  func handlerAdded(context: ChannelHandlerContext) { self.context = context }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
    partner = nil
  }

  private func write(_ data: ByteBuffer) {
    context?.channel.writeAndFlush(data, promise: nil)
  }

  private func closeFromPartner() {
    context?.channel.close(promise: nil)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    partner?.write(unwrapInboundIn(data))
  }

  func channelInactive(context: ChannelHandlerContext) {
    partner?.closeFromPartner()
  }
}
