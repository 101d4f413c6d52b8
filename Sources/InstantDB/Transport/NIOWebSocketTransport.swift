public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A ``WebSocketTransport`` on SwiftNIO, used by default on Linux and Apple platforms. `ws://` and
/// `wss://` URLs are supported.
///
/// It behaves like a browser's `WebSocket`, which is what the reference client runs on:
/// - the connection ends as soon as the server closes its side, during the handshake too (a
///   half-closed socket is never kept waiting for an answer that cannot come);
/// - a socket that stops answering is detected with pings: one is sent every `pingInterval`, and
///   the socket is closed if the previous one was not answered;
/// - `TCP_NODELAY` is on, so a small frame leaves at once.
public struct NIOWebSocketTransport: WebSocketTransport {
  public var pingInterval: Duration
  /// The largest message accepted from the server, in bytes (fragments included).
  public var maxFrameSize: Int
  /// How long the TCP connect may take, and then how long the TLS and WebSocket handshakes may.
  public var connectTimeout: Duration
  /// A PEM file of the certificates to trust for `wss://` instead of the system's (a server behind
  /// a private CA); `nil` for the system's.
  public var trustedCertificatesFile: String?

  public init(
    pingInterval: Duration = .seconds(10), maxFrameSize: Int = 1 << 26, connectTimeout: Duration = .seconds(10),
    trustedCertificatesFile: String? = nil
  ) {
    self.pingInterval = pingInterval
    self.maxFrameSize = maxFrameSize
    self.connectTimeout = connectTimeout
    self.trustedCertificatesFile = trustedCertificatesFile
  }

  public func connect(to url: URL) async throws -> any WebSocketConnection {
    let target = try Target(url)
    let (messages, inbound) = AsyncThrowingStream<String, any Error>.makeStream()
    let socket = SocketHandler(inbound: inbound, pingInterval: TimeAmount(pingInterval))
    let maxFrameSize = maxFrameSize
    let tls = try target.secure ? NIOSSLContext(configuration: .client(trusting: trustedCertificatesFile)) : nil
    let upgraded: EventLoopFuture<Bool>
    do {
      upgraded = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connectTimeout(TimeAmount(connectTimeout))
        .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        .connect(host: target.host, port: target.port) { channel in
          socket.attach(channel)
          return channel.eventLoop.makeCompletedFuture {
            if let tls {
              let handler = try NIOSSLClientHandler(context: tls, serverHostname: TLSConfiguration.serverName(target.host))
              try channel.pipeline.syncOperations.addHandler(handler)
            }
            let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(maxFrameSize: maxFrameSize) { channel, _ in
              channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandlers(
                  NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: .max, maxAccumulatedFrameSize: maxFrameSize),
                  socket)
                return true
              }
            }
            var configuration = NIOUpgradableHTTPClientPipelineConfiguration(
              upgradeConfiguration: .init(
                upgradeRequestHead: target.requestHead, upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                  channel.close(promise: nil)
                  return channel.eventLoop.makeSucceededFuture(false)
                }))
            configuration.leftOverBytesStrategy = .forwardBytes
            return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: configuration)
          }
        }
    } catch {
      throw WebSocketTransportError("cannot connect to \(target.host):\(target.port): \(error)", underlying: error)
    }
    let deadline = upgraded.eventLoop.scheduleTask(in: TimeAmount(connectTimeout)) {
      socket.fail(WebSocketTransportError("no WebSocket handshake with \(target.redacted) within \(connectTimeout)"))
    }
    defer { deadline.cancel() }
    let accepted: Bool
    do {
      accepted = try await upgraded.get()
    } catch {
      if let timeout = socket.failedWith { throw timeout }
      throw WebSocketTransportError(
        "the connection to \(target.redacted) ended during the WebSocket handshake (\(error))", underlying: error)
    }
    guard accepted else {
      throw WebSocketTransportError("the server refused the WebSocket upgrade at \(target.redacted)")
    }
    return Connection(messages: messages, socket: socket)
  }

  struct Connection: WebSocketConnection {
    let messages: AsyncThrowingStream<String, any Error>
    let socket: SocketHandler

    func send(_ text: String) { socket.send(text) }

    /// Sends a close frame and waits (at most two seconds) for the server to close the socket.
    func close() async { await socket.close(within: .seconds(2)) }
  }
}

/// Where a WebSocket URL points, and the request that opens it.
private struct Target: Sendable {
  var host: String
  var port: Int
  var secure: Bool
  var requestHead: HTTPRequestHead
  /// The URL without its query (which may carry an app id or a token) for error messages.
  var redacted: String

  init(_ url: URL) throws {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
      let host = components.host, !host.isEmpty
    else { throw WebSocketTransportError("not a WebSocket URL (ws:// or wss://): \(url.absoluteString)") }
    self.host = host
    self.secure = scheme == "wss"
    self.port = components.port ?? (secure ? 443 : 80)
    let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    let uri = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    let defaultPort = components.port == nil
    let hostHeader = defaultPort ? host : "\(host):\(port)"
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: hostHeader)
    headers.add(name: "Origin", value: "\(secure ? "https" : "http")://\(hostHeader)")
    self.requestHead = HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers)
    self.redacted = "\(scheme)://\(hostHeader)\(path)"
  }
}

extension TimeAmount {
  init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
