public import InstantLocal
public import Logging

/// Runs `body` against a fresh `InstantLocalServer` and always stops it.
///
/// The server starts before `body` runs (on port 0 unless `configuration` names a port, in memory
/// unless it names a data file) and is stopped — awaited, so its port is free again — when `body`
/// returns *or throws*; `body`'s result or error is passed on. Inside, read the addresses from
/// the server:
///
/// ```swift
/// try await withInstantLocal { server in
///   let webSocket = try #require(await server.webSocketURL)  // ws://127.0.0.1:<port>/runtime/session
///   let http = try #require(await server.baseURL)            // http://127.0.0.1:<port>
///   …
/// }
///
/// // Durability: the same data file across two servers.
/// try await withInstantLocal(configuration: .testing(dataFile: path)) { server in … }
/// ```
///
/// - Parameters:
///   - configuration: How the server listens and stores; ``InstantLocal/InstantLocalConfiguration/testing(dataFile:)``
///     (port 0, in memory) by default.
///   - logger: The server's logger; by default only errors are logged.
///   - body: The test, given the running server.
/// - Throws: `InstantLocalError` when the server cannot open its storage or
///   listen; otherwise whatever `body` throws.
public func withInstantLocal<T>(
  configuration: InstantLocalConfiguration = .testing(),
  logger: Logger = .instantLocalTesting,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (InstantLocalServer) async throws -> T
) async throws -> T {
  let server = try InstantLocalServer(configuration: configuration, logger: logger)
  try await server.start()
  let result: T
  do {
    result = try await body(server)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
  return result
}

extension InstantLocalConfiguration {
  /// What a test wants: loopback, port 0 (any free port), and the data in memory, or in the
  /// SQLite file at `dataFile` (to test what survives a restart). The WebSocket ping comes every
  /// 60 s rather than 5: a whole suite on two loaded cores has left a socket's pong unanswered
  /// for longer than 5 s, and the server then closes it — a reconnect in the middle of a test
  /// about something else. Tests of liveness set their own interval.
  public static func testing(dataFile: String? = nil) -> InstantLocalConfiguration {
    InstantLocalConfiguration(port: 0, storage: dataFile.map { .file($0) } ?? .memory, pingInterval: .seconds(60))
  }
}

extension Logger {
  /// `instant-local` logging errors only, so passing tests print nothing.
  public static var instantLocalTesting: Logger {
    var logger = Logger(label: "instant-local")
    logger.logLevel = .error
    return logger
  }
}
