import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What answers on a TCP address: nothing (and why, in the system's words), an instant-local
/// (its `GET /health` says `{"status":"ok"}`), or some other program.
public enum ServerProbe: Equatable, Sendable {
  /// Nothing accepted the connection; `reason` is the system's ("Connection refused").
  case unreachable(reason: String)
  case instantLocal
  /// Something else accepted it; `answer` is the first line it sent back, if any.
  case otherProgram(answer: String?)

  /// Connects to `host`:`port` (waiting at most `timeout`) and asks for `/health`.
  public static func probe(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(2)) -> ServerProbe {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var found: UnsafeMutablePointer<addrinfo>?
    let lookup = getaddrinfo(host, String(port), &hints, &found)
    guard lookup == 0, let first = found else {
      return .unreachable(reason: "cannot resolve \(host): \(String(cString: gai_strerror(lookup)))")
    }
    defer { freeaddrinfo(found) }
    let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
    guard fd >= 0 else { return .unreachable(reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    let seconds = Int(timeout.components.seconds)
    var limit = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
      return .unreachable(reason: String(cString: strerror(errno)))
    }
    let request = "GET /health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), 0) }
    var answer = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while answer.count < 16_384 {
      let count = recv(fd, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      answer += buffer[..<count]
    }
    let text = String(decoding: answer, as: UTF8.self)
    if text.hasPrefix("HTTP/1.1 200"), text.contains(#""status":"ok""#) { return .instantLocal }
    let firstLine = text.split(separator: "\r\n", maxSplits: 1).first.map(String.init)
    return .otherProgram(answer: firstLine)
  }
}
