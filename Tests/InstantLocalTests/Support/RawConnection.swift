import Foundation
import InstantCore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TestSupport

/// A plain TCP connection for hand-written HTTP/1.1, to test what happens on one connection
/// across several requests (no HTTP client library would do that on purpose).
struct RawConnection {
  /// One HTTP response as read off the socket.
  struct Response {
    /// The status line, e.g. `HTTP/1.1 200 OK`.
    var statusLine: String
    /// Header names lower-cased.
    var headers: [String: String]
    var body: String

    var status: Int? { statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
  }

  /// How long a connection may stay open before the test closes it itself (so a server that
  /// keeps it open fails the test instead of hanging it): the suite's ``backstop``, since the
  /// whole suite shares two cores, and a 2 MB body through a debug build has taken longer than
  /// 10 s there.
  static let deadline = backstop

  /// Connects to `127.0.0.1:port` and runs `body` with the connection, closing it afterwards
  /// (or after `deadline`).
  static func with<T: Sendable>(
    port: Int, deadline: Duration = RawConnection.deadline, _ body: (inout Session) async throws -> T
  ) async throws -> T {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    let socket = channel.channel
    let expired = NIOLockedValueBox(false)
    let watchdog = Task {
      try await Task.sleep(for: deadline)
      expired.withLockedValue { $0 = true }
      try await socket.close()
    }
    defer { watchdog.cancel() }
    return try await channel.executeThenClose { inbound, outbound in
      var session = Session(iterator: inbound.makeAsyncIterator(), outbound: outbound, expired: expired)
      return try await body(&session)
    }
  }

  struct Session {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    /// Bytes read but not yet taken.
    var buffer = ByteBuffer()
    private let expired: NIOLockedValueBox<Bool>

    init(
      iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
      expired: NIOLockedValueBox<Bool>
    ) {
      self.iterator = iterator
      self.outbound = outbound
      self.expired = expired
    }

    /// Whether the test's own deadline closed the connection (rather than the server).
    var closedByDeadline: Bool { expired.withLockedValue { $0 } }

    /// Writes `text` as is; false when the server already closed the connection.
    mutating func send(_ text: String) async -> Bool {
      do {
        try await outbound.write(ByteBuffer(string: text))
        return true
      } catch {
        return false
      }
    }

    /// The next response (head, and a `Content-Length` body), or nil once the server closed the
    /// connection (or reset it) before a whole head arrived.
    mutating func readResponse() async -> Response? {
      while true {
        let text = String(buffer: buffer)
        if let end = text.range(of: "\r\n\r\n") {
          let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
          var headers: [String: String] = [:]
          for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          }
          let length = Int(headers["content-length"] ?? "0") ?? 0
          let bodyStart = text.utf8.distance(from: text.startIndex, to: end.upperBound)
          if buffer.readableBytes >= bodyStart + length {
            buffer.moveReaderIndex(forwardBy: bodyStart)
            let body = buffer.readString(length: length) ?? ""
            return Response(statusLine: lines[0], headers: headers, body: body)
          }
        }
        guard var chunk = try? await iterator.next() else { return nil }
        buffer.writeBuffer(&chunk)
      }
    }
  }
}

extension RawConnection {
  /// `POST path` with a JSON body, asking to keep the connection alive.
  static func post(_ path: String, json: String, port: Int) -> String {
    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(json.utf8.count)\r\n\r\n\(json)"
  }

  /// A WebSocket upgrade request for `/runtime/session`, as InstantDB's client opens it.
  static func webSocketUpgrade(appID: String, port: Int) -> String {
    "GET /runtime/session?app_id=\(appID) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
      + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
  }
}

extension RawConnection.Session {
  /// The next server-sent event's `data` (the stream's messages, as JSON), skipping comments
  /// and the chunked encoding's size lines; nil once the connection ends.
  mutating func nextEvent() async -> JSON? {
    while true {
      let text = String(buffer: buffer)
      if let start = text.range(of: "data: "), let end = text.range(of: "\n\n", range: start.upperBound..<text.endIndex) {
        let data = String(text[start.upperBound..<end.lowerBound])
        buffer.moveReaderIndex(forwardBy: text.utf8.distance(from: text.startIndex, to: end.upperBound))
        return try? JSON.parse(data)
      }
      guard var chunk = try? await iterator.next() else { return nil }
      buffer.writeBuffer(&chunk)
    }
  }
}

extension RawConnection.Session {
  /// Everything the server sends until it closes the connection (what was read but not taken
  /// first).
  mutating func readToEnd() async -> String {
    while var chunk = try? await iterator.next() { buffer.writeBuffer(&chunk) }
    return String(buffer: buffer)
  }
}
