public import Foundation
public import InstantLocal
import Logging
public import SharingInstant

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
  /// `swift run instant-local`), or starts one there with its data in `dataFile`. Throws when
  /// another program holds the port.
  public static func startOrJoin(port: Int = DemoServer.port, dataFile: String = DemoServer.dataFile) async throws -> DemoServer {
    switch ServerProbe.probe(port: port) {
    case .instantLocal:
      return local(port: port, embedded: nil)
    case .otherProgram(let answer):
      throw DemoError(portTaken: port, answer: answer)
    case .unreachable:
      do {
        return try await start(InstantLocalConfiguration(port: port, storage: .file(dataFile)))
      } catch InstantLocalError.cannotListen {
        // Another terminal started one at the same moment, or another program took the port.
        switch ServerProbe.probe(port: port) {
        case .instantLocal: return local(port: port, embedded: nil)
        case .otherProgram(let answer): throw DemoError(portTaken: port, answer: answer)
        case .unreachable(let reason): throw DemoError("cannot listen on port \(port) nor connect to it (\(reason)): try another --port")
        }
      }
    }
  }

  /// Throws, naming the cause, when nothing answers at ``apiURL`` (a server that is not running,
  /// a wrong port or host).
  public func checkedReachable() throws -> DemoServer {
    guard let host = apiURL.host else { return self }
    let port = apiURL.port ?? (apiURL.scheme == "https" ? 443 : 80)
    if case .unreachable(let reason) = ServerProbe.probe(host: host, port: port) {
      throw DemoError(
        "cannot reach \(apiURL.absoluteString): \(reason.lowercased()). Is the server running? "
          + "(`swift run instant-local` starts one on port 8888)")
    }
    return self
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
}

/// A demo's own error: a message for the person running it.
public struct DemoError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }

  init(portTaken port: Int, answer: String?) {
    self.init(
      "port \(port) is held by another program, not an instant-local (it answered "
        + (answer.map { "“\($0)”" } ?? "nothing") + "): choose another --port, or stop that program")
  }
}
