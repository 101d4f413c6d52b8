import Hummingbird
import HummingbirdWebSocket
import InstantCore
import Logging

/// A local InstantDB-compatible server: InstantDB's WebSocket protocol at
/// `GET /runtime/session`, its auth endpoints and schema pull over HTTP, and SQLite storage.
///
/// Embed it in tests on port 0:
///
/// ```swift
/// let server = try InstantLocalServer(configuration: .init(port: 0, storage: .memory))
/// let port = try await server.start()
/// // ws://127.0.0.1:\(port)/runtime/session
/// await server.stop()
/// ```
public actor InstantLocalServer {
  public nonisolated let configuration: InstantLocalConfiguration
  let registry: AppRegistry
  let logger: Logger
  private var runTask: Task<Void, any Error>?
  /// The bound port, once started.
  public private(set) var port: Int?

  /// Opens the storage; call ``start()`` or ``run()`` to serve.
  public init(
    configuration: InstantLocalConfiguration = .init(), logger: Logger = Logger(label: "instant-local")
  ) throws(InstantLocalError) {
    self.configuration = configuration
    self.logger = logger
    let path: String? =
      switch configuration.storage {
      case let .file(path): path
      case .memory: nil
      }
    registry = AppRegistry(storage: try LocalStorage(path: path, logger: logger), logger: logger)
  }

  /// Starts serving in the background and returns the bound port once it listens.
  public func start() async throws(InstantLocalError) -> Int {
    if let port { return port }
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = makeApplication { port in
      continuation.yield(port)
      continuation.finish()
    }
    let host = configuration.host
    runTask = Task {
      defer { continuation.finish() }
      try await app.runService(gracefulShutdownSignals: [])
    }
    for await bound in ports {
      port = bound
      return bound
    }
    throw .server("could not listen on \(host):\(configuration.port); is the port in use?")
  }

  /// Stops a server started with ``start()`` and waits for it to finish.
  public func stop() async {
    runTask?.cancel()
    _ = try? await runTask?.value
    runTask = nil
    port = nil
  }

  /// Serves until the process receives SIGINT or SIGTERM; `onListening` gets the bound port.
  public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
    try await makeApplication(onListening).runService()
  }

  /// The last magic code sent to `email` for `appID` and not yet used (the server logs it too).
  public func lastMagicCode(appID: String, email: String) async -> String? {
    guard let id = AppRegistry.normalizeAppID(appID), let app = try? await registry.app(id) else { return nil }
    return await app.lastMagicCode(email: email)
  }

  private func makeApplication(_ onListening: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
    let router = Router()
    HTTPRoutes(registry: registry, logger: logger).register(on: router)

    let wsRouter = Router(context: BasicWebSocketRequestContext.self)
    let registry = self.registry
    let logger = self.logger
    let maxMessageBytes = configuration.maxMessageBytes
    let transportLimit = maxMessageBytes * 2 + 4096
    wsRouter.ws("/runtime/session") { inbound, outbound, _ in
      let (texts, continuation) = AsyncStream<String>.makeStream()
      let sink = SessionSink(continuation)
      let connection = SessionConnection(registry: registry, sink: sink, maxMessageBytes: maxMessageBytes, logger: logger)
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for await text in texts { try await outbound.write(.text(text)) }
        }
        do {
          for try await message in inbound.messages(maxSize: transportLimit) {
            switch message {
            case let .text(text): await connection.receive(text)
            case let .binary(buffer): await connection.receive(String(buffer: buffer))
            }
          }
        } catch {
          logger.debug("session \(connection.id) ended: \(error)")
        }
        await connection.close()
        sink.finish()
        try await group.waitForAll()
      }
    }

    return Application(
      router: router,
      server: .http1WebSocketUpgrade(
        webSocketRouter: wsRouter,
        configuration: .init(
          ws: .init(maxFrameSize: transportLimit, autoPing: .enabled(timePeriod: configuration.pingInterval)))),
      configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "instant-local"),
      onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
      logger: logger)
  }
}
