import Foundation
import InstantLocal
import Logging
import SharingInstant

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a demo's clients connect, and the embedded server when the demo runs one.
public struct DemoServer: Sendable {
  /// The app every demo uses unless told otherwise (instant-local accepts any UUID).
  public static let appID = "5f0c1d2e-7a3b-4c5d-8e9f-0a1b2c3d4e5f"
  /// The port the terminal demos share: instant-local's default, so `swift run instant-local`
  /// in another terminal serves them too.
  public static let port = 8888
  /// Where the terminal demos' embedded server keeps its data.
  public static let dataFile = ".instant/demos.sqlite"

  /// The HTTP base (auth, schema pull).
  public let apiURL: URL
  /// The WebSocket endpoint.
  public let webSocketURL: URL
  /// The embedded server this process runs, `nil` when it uses someone else's.
  public let embedded: InstantLocalServer?

  /// A client of `appID` on this server, in memory unless `storage` says otherwise.
  public func client(appID: String = DemoServer.appID, storage: InstantStorage = .memory) -> InstantClient {
    InstantClient(appId: appID, apiURI: apiURL, websocketURI: webSocketURL, storage: storage, logger: DemoLogging.logger("instantdb"))
  }

  /// Stops the embedded server, if this process runs one.
  public func stop() async {
    await embedded?.stop()
  }

  /// What to call the server in a status line.
  public var summary: String {
    embedded == nil ? "server \(apiURL.absoluteString)" : "embedded instant-local on \(apiURL.absoluteString)"
  }

  /// A server someone else runs: `url` is its HTTP base (`http://127.0.0.1:8888`,
  /// `https://api.instantdb.com`) or its WebSocket endpoint (`ws://…/runtime/session`).
  public static func remote(_ url: URL) throws -> DemoServer {
    guard let scheme = url.scheme?.lowercased(), let host = url.host, ["http", "https", "ws", "wss"].contains(scheme) else {
      throw DemoError("--server wants an http(s):// or ws(s):// URL, got \(url.absoluteString)")
    }
    let secure = scheme == "https" || scheme == "wss"
    var base = URLComponents()
    base.scheme = secure ? "https" : "http"
    base.host = host
    base.port = url.port
    var socket = base
    socket.scheme = secure ? "wss" : "ws"
    socket.path = "/runtime/session"
    let webSocket = scheme.hasPrefix("ws") && !url.path.isEmpty ? url : socket.url!
    return DemoServer(apiURL: base.url!, webSocketURL: webSocket, embedded: nil)
  }

  /// A new in-memory instant-local on a free loopback port (what `instant-demo` runs).
  public static func startInMemory() async throws -> DemoServer {
    try await start(InstantLocalConfiguration(port: 0, storage: .memory))
  }

  /// Joins the instant-local already listening on `port` (another terminal's demo, or
  /// `swift run instant-local`), or starts one there with its data in `dataFile`.
  public static func startOrJoin(port: Int = DemoServer.port, dataFile: String = DemoServer.dataFile) async throws -> DemoServer {
    if isListening(port: port) { return local(port: port, embedded: nil) }
    do {
      return try await start(InstantLocalConfiguration(port: port, storage: .file(dataFile)))
    } catch InstantLocalError.cannotListen where isListening(port: port) {
      return local(port: port, embedded: nil)  // another terminal started one at the same moment
    }
  }

  static func start(_ configuration: InstantLocalConfiguration) async throws -> DemoServer {
    let server = try InstantLocalServer(configuration: configuration, logger: DemoLogging.logger("instant-local"))
    let port = try await server.start()
    return local(port: port, embedded: server)
  }

  static func local(port: Int, embedded: InstantLocalServer?) -> DemoServer {
    DemoServer(
      apiURL: URL(string: "http://127.0.0.1:\(port)")!,
      webSocketURL: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!,
      embedded: embedded)
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port`.
  public static func isListening(port: Int) -> Bool {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return result == 0
  }
}

/// A demo's own error: a message for the person running it.
public struct DemoError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
