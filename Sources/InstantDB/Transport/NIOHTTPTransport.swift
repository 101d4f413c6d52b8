public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// ``HTTPTransport`` on SwiftNIO: one HTTP/1.1 connection per request, `https` with the system's
/// trust roots or the certificates in ``NIOHTTPTransport/trustedCertificatesFile`` (as ``NIOWebSocketTransport``
/// takes them, so both halves of a client trust the same server).
public struct NIOHTTPTransport: HTTPTransport {
  /// A PEM file of the certificates to trust instead of the system's; `nil` for the system's.
  public var trustedCertificatesFile: String?
  /// How long a request may take, connect to last byte.
  public var timeout: Duration

  public init(trustedCertificatesFile: String? = nil, timeout: Duration = .seconds(60)) {
    self.trustedCertificatesFile = trustedCertificatesFile
    self.timeout = timeout
  }

  public func send(_ request: URLRequest) async throws -> (status: Int, body: Data) {
    guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
    else { throw URLError(.unsupportedURL) }
    let secure = scheme == "https"
    let port = components.port ?? (secure ? 443 : 80)
    let tls = try secure ? NIOSSLContext(configuration: .client(trusting: trustedCertificatesFile)) : nil
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connectTimeout(TimeAmount(timeout))
      .connect(host: host, port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          if let tls {
            try channel.pipeline.syncOperations.addHandler(
              NIOSSLClientHandler(context: tls, serverHostname: TLSConfiguration.serverName(host)))
          }
          try channel.pipeline.syncOperations.addHTTPClientHandlers()
          return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
        }
      }
    let deadline = channel.channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) { channel.channel.close(promise: nil) }
    defer { deadline.cancel() }
    let body = request.httpBody ?? Data()
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: components.port.map { "\(host):\($0)" } ?? host)
    for (name, value) in request.allHTTPHeaderFields ?? [:] where name.lowercased() != "host" {
      headers.add(name: name, value: value)
    }
    headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
    headers.replaceOrAdd(name: "Connection", value: "close")
    let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    let head = HTTPRequestHead(
      version: .http1_1, method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
      uri: components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path, headers: headers)
    return try await channel.executeThenClose { inbound, outbound in
      try await outbound.write(.head(head))
      if !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
      try await outbound.write(.end(nil))
      var status = 0
      var received = ByteBuffer()
      for try await part in inbound {
        switch part {
        case let .head(response): status = Int(response.status.code)
        case var .body(chunk): received.writeBuffer(&chunk)
        case .end: return (status, Data(received.readableBytesView))
        }
      }
      throw URLError(.networkConnectionLost)
    }
  }
}

extension TLSConfiguration {
  /// A client's configuration, trusting the certificates in `file` (PEM) instead of the system's
  /// when one is named.
  static func client(trusting file: String?) -> TLSConfiguration {
    var configuration = TLSConfiguration.makeClientConfiguration()
    if let file { configuration.trustRoots = .file(file) }
    return configuration
  }

  /// The name to present for SNI and check the certificate against: none for an IP address,
  /// which is checked against the certificate's IP addresses instead.
  static func serverName(_ host: String) -> String? {
    host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } ? nil : host
  }
}
