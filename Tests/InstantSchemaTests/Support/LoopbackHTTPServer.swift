import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-request HTTP server on 127.0.0.1 and a free port, so that `pull` makes a real HTTP call.
final class LoopbackHTTPServer: @unchecked Sendable {
  // Safety: `received` is only touched under `lock`; the other stored properties are immutable.
  let port: UInt16
  private let lock = NSLock()
  private var received: String?

  /// Starts listening and answers the first request with `status` and `body`.
  init(status: Int, body: String) throws {
    #if canImport(Glibc)
      let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let listener = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0, listen(listener, 1) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var actual = sockaddr_in()
    var actualLength = length
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &actualLength) }
    }
    port = UInt16(bigEndian: actual.sin_port)
    let response = "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    Thread { [self] in
      let connection = accept(listener, nil, nil)
      close(listener)
      guard connection >= 0 else { return }
      var request: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !request.containsHeaderEnd {
        let count = read(connection, &buffer, buffer.count)
        if count <= 0 { break }
        request.append(contentsOf: buffer[0..<count])
      }
      lock.withLock { received = String(decoding: request, as: UTF8.self) }
      let bytes = Array(response.utf8)
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        if written <= 0 { break }
        offset += written
      }
      close(connection)
    }.start()
  }

  /// The raw request head the server received, once it has received one.
  var request: String? { lock.withLock { received } }
}

extension [UInt8] {
  fileprivate var containsHeaderEnd: Bool {
    count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
  }
}
