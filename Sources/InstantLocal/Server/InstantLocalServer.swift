public import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
public import InstantCore
import InstantPermissions
public import Logging
import ServiceLifecycle
import UnixSignals

/// A local InstantDB-compatible server: InstantDB's WebSocket protocol at
/// `GET /runtime/session`, its auth endpoints and schema pull over HTTP, and SQLite storage.
///
/// Embed it on port 0 (tests can use `withInstantLocal` from `InstantLocalTesting`, which also
/// stops it):
///
/// ```swift
/// let server = try InstantLocalServer(configuration: .init(port: 0, storage: .memory))
/// try await server.start()
/// let url = await server.webSocketURL   // ws://127.0.0.1:<port>/runtime/session
/// await server.stop()
/// ```
public actor InstantLocalServer {
  public nonisolated let configuration: InstantLocalConfiguration
  let registry: AppRegistry
  let logger: Logger
  /// The running service group (stopped gracefully) and the task running it.
  private var running: (group: ServiceGroup, task: Task<Void, any Error>)?
  /// How long ``stop()`` waits for open sockets to close before cancelling them.
  /// The bound port, once started.
  public private(set) var port: Int?
  /// Watches the rules file while the server runs.
  private var rulesWatcher: Task<Void, Never>?
  /// The `subscribe-query` streams open now: ``stop()`` ends them.
  let openStreams = OpenStreams()
  /// A test seam: runs in ``stop()`` after open streams were told to end and before the server
  /// shuts down, so a test can act in that window (unset in apps).
  private var beforeShutdown: (@Sendable () async -> Void)?
  /// OpenID providers' configurations and keys, for ID-token sign-in.
  let openIDDirectory: OpenIDDirectory
  /// OAuth web sign-ins under way.
  let oauthFlows: OAuthFlows
  /// Every HTTP route served, as `(method, path)` with its `:parameters` (for tests that go
  /// through them all); filled when the server starts.
  private nonisolated let routeList = NIOLockedValueBox<[(method: String, path: String)]>([])
  nonisolated var httpRoutes: [(method: String, path: String)] { routeList.withLockedValue { $0 } }

  /// Opens the storage; call ``start()`` or ``run(onListening:)`` to serve.
  public init(
    configuration: InstantLocalConfiguration = .init(), logger: Logger = Logger(label: "instant-local")
  ) throws(InstantLocalError) {
    self.configuration = configuration
    self.logger = logger
    let clock = configuration.clock
    openIDDirectory = OpenIDDirectory(clock: clock)
    oauthFlows = OAuthFlows(now: { clock.now })
    let path: String? =
      switch configuration.storage {
      case let .file(path): path
      case .memory: nil
      }
    let storage = try LocalStorage(path: path, logger: logger)
    let files = try LocalFiles(
      storage: storage, dataFile: path, maxUploadBytes: configuration.maxUploadBytes,
      gracePeriod: configuration.fileGracePeriod, publicURL: configuration.publicURL, clock: clock, logger: logger)
    self.files = files
    let metrics = ServerMetrics()
    self.metrics = metrics
    registry = AppRegistry(
      storage: storage, strictApps: configuration.strictApps, files: files,
      magicCodeLimits: .init(expiry: configuration.magicCodeExpiry, perHour: configuration.magicCodesPerHour),
      keepsPlainCodes: configuration.mail == nil, metrics: metrics, clock: clock, logger: logger)
    apps = AppCatalog(storage: storage, clock: clock, blobDirectory: { appID in files.directory(appID) })
  }

  /// Sets the seam ``stop()`` runs between ending open streams and shutting down (tests only).
  package func setBeforeShutdown(_ body: (@Sendable () async -> Void)?) { beforeShutdown = body }

  /// What `GET /metrics` shows (``ServerMetrics``).
  let metrics: ServerMetrics

  /// The `$files` blobs (docs/files.md).
  let files: LocalFiles

  /// The server's apps and their admin tokens.
  public nonisolated let apps: AppCatalog

  /// Makes `rules` (the JSON of `instant.perms.ts`'s default export) every app's permission rules,
  /// in place of the rules each app was given (pushed or restored); `nil` gives each app its own
  /// back. Subscribed queries are re-run under them.
  ///
  /// - Throws: ``InstantLocalError/invalidRules(lines:)`` with every problem, leaving the
  ///   rules in force unchanged.
  public func setRules(_ rules: JSON?) async throws(InstantLocalError) {
    guard let rules else { return await registry.setServerRules(nil) }
    do {
      await registry.setServerRules(try PermissionRules(rules))
    } catch {
      throw .invalidRules(lines: error.problems.map { RulesFile.line($0, path: "rules", locations: [:]) })
    }
  }

  /// Starts serving in the background and returns the bound port once it listens (the chosen
  /// one when the configuration asks for port 0). Calling it again while running returns the
  /// same port.
  ///
  /// - Throws: ``InstantLocalError/cannotListen(address:reason:)`` with the operating system's
  ///   reason when the address cannot be bound (for example, the port is in use).
  @discardableResult
  public func start() async throws(InstantLocalError) -> Int {
    try await start(handlingSignals: false)
  }

  /// Stops a server started with ``start()`` and waits for it to finish; does nothing when it
  /// is not running. Open sockets get a normal WebSocket close and `subscribe-query` streams
  /// their last chunk; what is still open after ``InstantLocalConfiguration/shutdownGrace``
  /// (2 s) is cut.
  public func stop() async {
    rulesWatcher?.cancel()
    rulesWatcher = nil
    guard let (group, task) = running else { return }
    // Closes the listening socket before the streams end (see ``OpenStreams``).
    await openStreams.finishAll()
    await beforeShutdown?()
    await group.triggerGracefulShutdown()
    let grace = configuration.shutdownGrace
    let deadline = Task { [clock = configuration.clock] in
      try await clock.sleep(for: grace)
      task.cancel()
    }
    if case let .failure(error) = await task.result, !(error is CancellationError) {
      logger.warning("instant-local stopped with an error: \(error)")
    }
    deadline.cancel()
    running = nil
    port = nil
    files.serverStopped(configuredURL: configuration.publicURL)
  }

  /// Serves until the process receives SIGINT or SIGTERM (or the calling task is cancelled);
  /// `onListening` gets the bound port.
  ///
  /// - Throws: ``InstantLocalError/cannotListen(address:reason:)`` when the address cannot be
  ///   bound; whatever stopped the server otherwise.
  public func run(onListening: @Sendable (Int) -> Void = { _ in }) async throws {
    onListening(try await start(handlingSignals: true))
    guard let (_, task) = running else { return }
    defer {
      running = nil
      port = nil
      files.serverStopped(configuredURL: configuration.publicURL)
      rulesWatcher?.cancel()
      rulesWatcher = nil
    }
    try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }

  private func start(handlingSignals: Bool) async throws(InstantLocalError) -> Int {
    if let port { return port }
    try await loadRulesFile()
    if configuration.unverifiedIDTokens {
      logger.warning(
        "ID tokens are NOT verified (--unverified-id-tokens): anyone can sign in as anyone with a token they make. For development only."
      )
    }
    if let mail = configuration.mail {
      logger.notice("magic codes are emailed through \(mail.host):\(mail.port) (\(mail.security.rawValue)) from \(mail.from.email)")
    } else {
      logger.notice("no mailer configured: magic codes are written to this log, not emailed (development; see --smtp-host)")
    }
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = makeApplication { port in
      continuation.yield(port)
      continuation.finish()
    }
    let group = ServiceGroup(
      configuration: .init(
        services: [app], gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [], logger: logger))
    let task = Task {
      defer { continuation.finish() }
      try await group.run()
    }
    running = (group, task)
    for await bound in ports {
      port = bound
      files.serverStarted(baseURL: baseURL)
      return bound
    }
    running = nil
    let underlying: (any Error)? =
      switch await task.result {
      case let .failure(error): error
      case .success: nil
      }
    throw .cannotListen(host: configuration.host, port: configuration.port, underlying: underlying)
  }

  /// Reads the configured rules file (a server does not start on rules it cannot use) and
  /// watches it for changes.
  private func loadRulesFile() async throws(InstantLocalError) {
    guard let path = configuration.rulesFile, rulesWatcher == nil else { return }
    let file = RulesFile(path: path)
    let stamp = file.stamp()
    switch file.load() {
    case let .success(rules): await registry.setServerRules(rules)
    case let .failure(error): throw .invalidRules(lines: error.lines)
    }
    let registry = self.registry
    let logger = self.logger
    let interval = configuration.rulesPollInterval
    let clock = configuration.clock
    rulesWatcher = Task.detached {
      await file.watch(every: interval, from: stamp, clock: clock, logger: logger) { rules in await registry.setServerRules(rules) }
    }
  }

  /// `http://host:port`, the base of the HTTP endpoints (`apiURI` for InstantDB's clients), once started.
  public var baseURL: URL? {
    port.flatMap { URL(string: "http://\(Self.urlHost(configuration.host)):\($0)") }
  }

  /// `ws://host:port/runtime/session`, the WebSocket endpoint (`websocketURI`), once started.
  public var webSocketURL: URL? {
    port.flatMap { URL(string: "ws://\(Self.urlHost(configuration.host)):\($0)/runtime/session") }
  }

  /// The last magic code sent to `email` for `appID` and not yet used, when the server has no
  /// mailer (it logs codes then); `nil` with one, which keeps codes only as hashes.
  public func lastMagicCode(appID: String, email: String) async -> String? {
    guard let id = AppRegistry.normalizeAppID(appID), let app = try? await registry.app(id) else { return nil }
    return await app.lastMagicCode(email: email)
  }

  /// The host as it goes in a URL: loopback for a wildcard address, brackets around IPv6.
  static func urlHost(_ host: String) -> String {
    switch host {
    case "0.0.0.0", "": "127.0.0.1"
    case "::": "[::1]"
    case _ where host.contains(":"): "[\(host)]"
    default: host
    }
  }

  private func makeApplication(_ onListening: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
    let router = Router(context: HTTPRequestContext.self)
    let idTokens = IDTokenSignIn(
      storage: registry.storage, check: IDTokenCheck(directory: openIDDirectory), unverified: configuration.unverifiedIDTokens)
    let mailer = MagicCodeMailer(
      storage: registry.storage, smtp: configuration.mail.map { SMTPClient(configuration: $0, clock: configuration.clock) },
      expiry: configuration.magicCodeExpiry, logger: logger, metrics: metrics)
    let files = self.files
    let oauth = OAuthWebFlow(
      storage: registry.storage, directory: openIDDirectory, check: IDTokenCheck(directory: openIDDirectory), flows: oauthFlows,
      publicBase: { files.publicBase() })
    var routes = HTTPRoutes(
      registry: registry, logger: logger, maxBodyBytes: configuration.maxMessageBytes, idTokens: idTokens, mailer: mailer,
      metrics: metrics, oauth: oauth)
    routes.metricsTokenSHA256 = configuration.metricsToken.map(AdminToken.sha256)
    routes.maxQueuedBytes = configuration.maxQueuedBytes
    routes.streamHeartbeat = configuration.pingInterval
    routes.openStreams = openStreams
    let limits = RequestLimits(
      configuration.limits, trustedProxies: configuration.trustedProxies, clock: configuration.clock)
    routes.limits = limits
    routes.register(on: router)
    routeList.withLockedValue { $0 = router.routes.map { (method: $0.method.rawValue, path: $0.path.description) } }
    let transportLimit = configuration.maxMessageBytes * 2 + 4096
    let sessions = SessionRoute(
      registry: registry, maxMessageBytes: configuration.maxMessageBytes, transportLimit: transportLimit,
      presenceInterval: configuration.presenceInterval, maxQueuedBytes: configuration.maxQueuedBytes, metrics: metrics,
      limits: limits, clock: configuration.clock, logger: logger)
    return Application(
      router: router,
      server: .instantLocal(
        webSocketRouter: sessions.router(),
        configuration: .init(
          ws: .init(maxFrameSize: transportLimit, autoPing: .enabled(timePeriod: configuration.pingInterval)))),
      configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "instant-local"),
      onServerRunning: { [openStreams] channel in
        openStreams.listening(on: channel)
        onListening(channel.localAddress?.port ?? 0)
      },
      logger: Self.quietStops(logger))
  }

  /// `logger` for Hummingbird, which logs two ends of a stop as errors: the listening socket
  /// already closed (``OpenStreams`` closes it first, on purpose), and connections cut once
  /// ``InstantLocalConfiguration/shutdownGrace`` ran out (what a stop does). Both are debug lines.
  static func quietStops(_ logger: Logger) -> Logger {
    DemotingLogHandler.demoting(logger) { event in
      let message = event.message.description
      return message.hasPrefix("Server shutdown error: Already closed") || message == "Waiting on child channel: CancellationError()"
    }
  }
}
