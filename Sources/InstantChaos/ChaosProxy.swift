import NIOConcurrencyHelpers
package import NIOCore
import NIOPosix

/// A TCP proxy on loopback between one client and the server, for faults: it forwards bytes both
/// ways and can drop every connection, stall them (stop reading for a while), or half-close them
/// (shut one direction). The server it forwards to can change (after the server restarts).
package final class ChaosProxy: Sendable {
  package let port: Int
  private let channel: any Channel
  private let state: NIOLockedValueBox<State>

  struct State {
    var targetPort: Int
    var pairs: [(client: any Channel, server: any Channel)] = []
  }

  private init(port: Int, channel: any Channel, state: NIOLockedValueBox<State>) {
    self.port = port
    self.channel = channel
    self.state = state
  }

  package static func start(to targetPort: Int) async throws -> ChaosProxy {
    let state = NIOLockedValueBox(State(targetPort: targetPort))
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.allowRemoteHalfClosure, value: true)
      .childChannelInitializer { inbound in
        ClientBootstrap(group: inbound.eventLoop)
          .channelOption(.allowRemoteHalfClosure, value: true)
          .connect(host: "127.0.0.1", port: state.withLockedValue { $0.targetPort })
          .flatMap { outbound in
            state.withLockedValue {
              $0.pairs.removeAll { !$0.client.isActive && !$0.server.isActive }
              $0.pairs.append((inbound, outbound))
            }
            let (a, b) = Splice.pair()
            // The accepted channel reads only once this future completes, so no byte arrives
            // before the splice is in place.
            return inbound.pipeline.addHandler(a).and(outbound.pipeline.addHandler(b)).map { _ in }
          }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return ChaosProxy(port: channel.localAddress!.port!, channel: channel, state: state)
  }

  /// Where new connections go.
  package func retarget(_ port: Int) { state.withLockedValue { $0.targetPort = port } }

  /// Closes every connection (both sides), as a dropped network would.
  package func drop() {
    for pair in takePairs() {
      pair.client.close(promise: nil)
      pair.server.close(promise: nil)
    }
  }

  /// Stops reading both ways for `duration`: bytes back up as on a network that goes quiet.
  package func stall(for duration: TimeAmount) {
    let pairs = state.withLockedValue { $0.pairs }
    for pair in pairs {
      for channel in [pair.client, pair.server] {
        channel.setOption(.autoRead, value: false).whenComplete { _ in
          channel.eventLoop.scheduleTask(in: duration) {
            channel.setOption(.autoRead, value: true).whenComplete { _ in channel.read() }
          }
        }
      }
    }
  }

  /// Shuts one direction of every connection: towards the client (it reads end-of-file while its
  /// own bytes still reach the server) or towards the server. The peer's close then closes both.
  package func halfClose(towardsClient: Bool) {
    for pair in takePairs() {
      let side = towardsClient ? pair.client : pair.server
      side.close(mode: .output, promise: nil)
      // A peer that ignores the end-of-file would keep the connection forever; cut it later.
      side.eventLoop.scheduleTask(in: .seconds(3)) {
        pair.client.close(promise: nil)
        pair.server.close(promise: nil)
      }
    }
  }

  package func stop() async {
    drop()
    try? await channel.close()
  }

  private func takePairs() -> [(client: any Channel, server: any Channel)] {
    state.withLockedValue { state in
      defer { state.pairs = [] }
      return state.pairs.filter { $0.client.isActive || $0.server.isActive }
    }
  }
}

/// Forwards reads of one channel to its partner and passes closes and end-of-file on.
private final class Splice: ChannelDuplexHandler, @unchecked Sendable {
  // Safety: each handler is only used on its channel's event loop (a proxied pair shares the
  // inbound channel's loop); the partner link is set once before either channel reads.
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private var partner: Splice?
  private var context: ChannelHandlerContext?

  static func pair() -> (Splice, Splice) {
    let a = Splice()
    let b = Splice()
    a.partner = b
    b.partner = a
    return (a, b)
  }

  func handlerAdded(context: ChannelHandlerContext) { self.context = context }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
    partner = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    partner?.context?.channel.writeAndFlush(unwrapInboundIn(data), promise: nil)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event as? ChannelEvent == .inputClosed {
      partner?.context?.channel.close(mode: .output, promise: nil)
    }
    context.fireUserInboundEventTriggered(event)
  }

  func channelInactive(context: ChannelHandlerContext) {
    partner?.context?.channel.close(promise: nil)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}
