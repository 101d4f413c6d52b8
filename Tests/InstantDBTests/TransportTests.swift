import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import InstantDB
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Testing

/// The NIO transport against servers that misbehave: it fails fast where a browser's WebSocket
/// would, and never waits on a socket that cannot answer.
@Suite("NIO transport", .timeLimit(.minutes(10)))
struct NIOTransportTests {
  static func url(_ port: Int) -> URL { URL(string: "ws://127.0.0.1:\(port)/runtime/session?app_id=x")! }

  @Test("A connection closed after the upgrade request fails the connect at once, not at the timeout")
  func closedDuringHandshake() async throws {
    let server = try await RawServer.start { HangUp() }
    defer { server.stop() }
    // A timeout no loaded machine reaches, so the connect ending before half of it can only be
    // the closed socket noticed.
    let transport = NIOWebSocketTransport(connectTimeout: .seconds(600))
    let start = ContinuousClock.now
    let error = await #expect(throws: WebSocketTransportError.self) {
      _ = try await transport.connect(to: Self.url(server.port))
    }
    #expect(error?.description.contains("during the WebSocket handshake") == true, "\(String(describing: error))")
    let waited = ContinuousClock.now - start
    #expect(waited < .seconds(300), "the connect waited \(waited) for a socket that was already closed")
  }

  @Test("A server that never answers the upgrade is given up on after connectTimeout")
  func silentHandshake() async throws {
    let server = try await RawServer.start { Silent() }
    defer { server.stop() }
    let transport = NIOWebSocketTransport(connectTimeout: .milliseconds(300))
    let error = await #expect(throws: WebSocketTransportError.self) {
      _ = try await transport.connect(to: Self.url(server.port))
    }
    #expect(error?.description.contains("no WebSocket handshake") == true, "\(String(describing: error))")
    #expect(error?.description.contains("app_id") == false, "the query is left out of error messages")
  }

  @Test("A server that answers the upgrade with plain HTTP is a refused upgrade")
  func refusedUpgrade() async throws {
    let server = try await RawServer.start { NotFound() }
    defer { server.stop() }
    let error = await #expect(throws: WebSocketTransportError.self) {
      _ = try await NIOWebSocketTransport().connect(to: Self.url(server.port))
    }
    #expect(error?.description.contains("refused the WebSocket upgrade") == true, "\(String(describing: error))")
  }

  @Test("Nothing listening: the connect fails with the address")
  func nothingListening() async throws {
    // A port held by a socket that is bound but not listening refuses connections, and no other
    // test's server can be given it meanwhile (a port freed by a stopped server could be).
    let holder = try BoundPort()
    defer { holder.close() }
    let error = await #expect(throws: WebSocketTransportError.self) {
      _ = try await NIOWebSocketTransport().connect(to: Self.url(holder.port))
    }
    #expect(error?.description.contains("127.0.0.1:\(holder.port)") == true, "\(String(describing: error))")
  }

  @Test("Not a WebSocket URL: a clear error")
  func badURL() async throws {
    let error = await #expect(throws: WebSocketTransportError.self) {
      _ = try await NIOWebSocketTransport().connect(to: URL(string: "http://127.0.0.1:1/x")!)
    }
    #expect(error?.description.contains("not a WebSocket URL") == true)
  }

  @Test("A socket whose server stops answering pings is closed after two ping intervals")
  func deadSocket() async throws {
    let server = try await RawServer.webSocket()
    defer { server.stop() }
    let transport = NIOWebSocketTransport(pingInterval: .milliseconds(100))
    let socket = try await transport.connect(to: Self.url(server.port))
    socket.send("hello")
    let start = ContinuousClock.now
    await #expect(throws: WebSocketTransportError.self) {
      for try await _ in socket.messages {}
    }
    #expect(ContinuousClock.now - start < .seconds(20))
  }
}

/// A TCP server on loopback whose connections are served by a fresh handler each.
struct RawServer {
  let channel: any Channel
  var port: Int { channel.localAddress!.port! }

  static func start(_ handler: @escaping @Sendable () -> any ChannelHandler & Sendable) async throws -> RawServer {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .childChannelInitializer { $0.pipeline.addHandler(handler()) }
      .bind(host: "127.0.0.1", port: 0).get()
    return RawServer(channel: channel)
  }

  /// A WebSocket server that completes the handshake, then reads frames and never answers.
  static func webSocket() async throws -> RawServer {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .childChannelInitializer { channel in
        let upgrader = NIOWebSocketServerUpgrader(
          shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
          upgradePipelineHandler: { channel, _ in channel.pipeline.addHandler(Silent()) })
        return channel.pipeline.configureHTTPServerPipeline(
          withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return RawServer(channel: channel)
  }

  func stop() { channel.close(promise: nil) }
}

/// Reads the request and hangs up without answering.
private final class HangUp: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer
  func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.close(promise: nil) }
}

/// Reads everything and answers nothing.
private final class Silent: ChannelInboundHandler, Sendable {
  typealias InboundIn = Any
  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// Answers any request with a 404 and closes.
private final class NotFound: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer
  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let response = "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response))).whenComplete { _ in channel.close(promise: nil) }
  }
}

/// A loopback TCP port bound by a socket that never listens: connecting to it is refused.
private struct BoundPort {
  let fd: Int32
  let port: Int

  struct Failure: Error { let call: String }

  init() throws {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw Failure(call: "socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
        bind(fd, sockaddr, length) == 0 && getsockname(fd, sockaddr, &length) == 0
      }
    }
    guard bound else {
      Self.close(fd)
      throw Failure(call: "bind")
    }
    self.fd = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  func close() { Self.close(fd) }

  private static func close(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
  }
}
