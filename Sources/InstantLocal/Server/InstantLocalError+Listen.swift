import Foundation
import NIOCore

extension InstantLocalError {
  /// ``cannotListen(address:reason:)`` for what the HTTP server threw while binding `host:port`
  /// (nil when it stopped without an error).
  static func cannotListen(host: String, port: Int, underlying: (any Error)?) -> InstantLocalError {
    if let io = underlying as? IOError, io.errnoCode == EADDRNOTAVAIL { return .notAnAddressOfThisMachine(host: host) }
    return .cannotListen(address: "\(host):\(port)", reason: reason(underlying))
  }

  /// The operating system's words for a socket error (`strerror`), else the error's description.
  private static func reason(_ error: (any Error)?) -> String {
    guard let error else { return "the server stopped before it was listening" }
    if let io = error as? IOError {
      return "\(String(cString: strerror(io.errnoCode))) (errno \(io.errnoCode))"
    }
    return String(describing: error)
  }
}
