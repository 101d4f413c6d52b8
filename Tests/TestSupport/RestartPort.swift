import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A free loopback port below the system's ephemeral range, for a server a test stops and starts
/// again on the same port.
///
/// A port the system gave to a server started on port 0 comes from the ephemeral range, and once
/// that server stops, another test's port-0 server (the whole suite runs at once) can be given it
/// before the restart binds it again. No port-0 bind is ever given a port below that range, so a
/// port from there stays free for the restart; this one was free when it was chosen.
public func portForRestarts() -> Int {
  let lowestEphemeral = ephemeralRangeStart()
  let candidates = max(1_024, lowestEphemeral - 12_000)..<lowestEphemeral
  for _ in 0..<1_000 {
    let port = Int.random(in: candidates)
    if canBind(port) { return port }
  }
  fatalError("no free port in \(candidates)")
}

/// The first port of `/proc/sys/net/ipv4/ip_local_port_range` (32768 where it cannot be read, as
/// Linux's default; macOS's range starts at 49152).
private func ephemeralRangeStart() -> Int {
  let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
  return text?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
}

/// Whether a TCP socket can bind `127.0.0.1:port` now.
private func canBind(_ port: Int) -> Bool {
  #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var reuse: Int32 = 1
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
  }
}
