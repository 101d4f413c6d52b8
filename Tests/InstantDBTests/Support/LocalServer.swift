import Foundation
import InstantCore
import InstantDB
import InstantLocal
import InstantLocalTesting
import TestSupport
import Testing
import Logging

/// A running instant-local (from `withInstantLocal`) and clients pointed at it.
struct LocalServer {
  static let appID = "6a0e5a43-2d2c-4f4e-9a53-1c8f3d6f0b11"

  let server: InstantLocalServer
  let port: Int
  /// What the clients made here log at error level, checked when ``withServer``'s body returns (a
  /// client may outlive the server, as across a restart: what it logs later is not checked).
  let errors: ExpectedErrors

  /// A client of this server, logging into ``errors`` unless given its own `logger` (a test that
  /// reads every line itself).
  func client(
    storage: InstantStorage = .memory, schema: ClientSchema? = nil, transport: any WebSocketTransport = NIOWebSocketTransport(),
    logger: Logger? = nil
  ) -> InstantClient {
    Self.client(port: port, storage: storage, schema: schema, transport: transport, logger: logger ?? errors.logger)
  }

  static func client(
    port: Int, storage: InstantStorage = .memory, schema: ClientSchema? = nil,
    transport: any WebSocketTransport = NIOWebSocketTransport(), logger: Logger? = nil
  ) -> InstantClient {
    InstantClient(
      appId: appID, apiURI: URL(string: "http://127.0.0.1:\(port)")!,
      websocketURI: URL(string: "ws://127.0.0.1:\(port)/runtime/session")!, storage: storage, schema: schema,
      transport: transport, logger: logger)
  }
}

/// Runs `body` with a started server (in memory, or on `dataFile`; on `port`, any free one by
/// default), stopped afterwards whatever happens. When `body` returns, its clients must have
/// logged the errors named in `expectingErrors` (parts of their text; ``ExpectedErrors``), and no
/// others but those in `allowingErrors`.
func withServer<T>(
  dataFile: String? = nil, port: Int = 0, maxMessageBytes: Int? = nil, unverifiedIDTokens: Bool = false,
  expectingErrors: [String] = [], allowingErrors: [String] = [], sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (LocalServer) async throws -> T
) async throws -> T {
  let errors = ExpectedErrors(expectingErrors, allowing: allowingErrors)
  var configuration = InstantLocalConfiguration.testing(dataFile: dataFile)
  configuration.port = port
  configuration.unverifiedIDTokens = unverifiedIDTokens
  if let maxMessageBytes { configuration.maxMessageBytes = maxMessageBytes }
  return try await withInstantLocal(configuration: configuration, logger: quietLogger) { server in
    let bound = try #require(await server.port)
    let result = try await body(LocalServer(server: server, port: bound, errors: errors))
    errors.check(sourceLocation)
    return result
  }
}

let quietLogger: Logger = {
  var logger = Logger(label: "instant-local-test")
  logger.logLevel = .critical
  return logger
}()

/// Reads a live query in the background; `next` waits until a result matches.
final class Watcher: Sendable {
  private let results = Locked<[QueryResult]>([])
  private let reader: Task<Void, Never>

  init(_ subscription: QuerySubscription) {
    let results = self.results
    reader = Task {
      for await result in subscription { results.withLock { $0.append(result) } }
    }
  }

  deinit { reader.cancel() }

  var last: QueryResult? { results.withLock { $0.last } }
  var all: [QueryResult] { results.withLock { $0 } }
  var count: Int { results.withLock { $0.count } }

  /// The latest result if it matches, else waits for one that does.
  @discardableResult
  func next(
    timeout: Duration = backstop, _ what: String = "a matching result",
    where predicate: @escaping @Sendable (QueryResult) -> Bool
  ) async throws -> QueryResult {
    try await eventually(
      what, timeout: timeout, every: .milliseconds(5),
      detail: { "last: \(last.map { $0.data.serialized() } ?? "none")" }
    ) { self.last.flatMap { predicate($0) ? $0 : nil } }
  }

  func stop() { reader.cancel() }
}

extension QueryResult {
  /// The entities of `namespace`, in order.
  func rows(_ namespace: String) -> [JSON] { data[namespace]?.arrayValue ?? [] }

  /// `field` of each entity of `namespace`, in order.
  func column(_ namespace: String, _ field: String) -> [JSON] { rows(namespace).map { $0[field] ?? .null } }
}

func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("instantdb-tests-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Collects what an async sequence yields, in the background.
final class Watching<Element: Sendable>: Sendable {
  private let collected = Locked<[Element]>([])
  private let reader: Task<Void, Never>

  init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
    let collected = self.collected
    reader = Task {
      do {
        for try await element in sequence { collected.withLock { $0.append(element) } }
      } catch {}
    }
  }

  deinit { reader.cancel() }

  var values: [Element] { collected.withLock { $0 } }
}
