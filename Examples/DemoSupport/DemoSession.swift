import Foundation
import Observation
import SharingInstant

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a key did.
public enum KeyOutcome: Sendable {
  case handled
  case quit
}

/// One run of a terminal demo: its options, its server (embedded or joined), its client (the
/// default one of every `@Shared` key made afterwards), and the loop that reads keys and redraws.
@MainActor
@Observable
public final class DemoSession {
  public let command: String
  public let title: String
  public let options: DemoOptions
  public let server: DemoServer
  public let client: InstantClient
  public let status: DemoStatus
  /// Whether the help is shown (``run`` shows the `help` lines under the body while it is).
  public var showingHelp = false
  /// A one-line message for the person at the keyboard (what the last command did); demos show it
  /// above their input line. Observed, so setting it later (after an `await`) redraws.
  public var notice: String?

  /// Reads the command line, then finds or starts the server and makes the client every
  /// `@Shared` key created afterwards uses. Prints the problem and exits on a bad option or a
  /// server that cannot start; prints the usage and exits on `--help`.
  public static func start(
    _ command: String, title: String, arguments: [String] = Array(CommandLine.arguments.dropFirst())
  ) async -> DemoSession {
    signal(SIGPIPE, SIG_IGN)
    DemoLogging.bootstrap()
    do {
      guard let options = try DemoOptions.parse(arguments) else {
        print(DemoOptions.usage(command, title))
        exit(0)
      }
      let server =
        if let url = options.server {
          try DemoServer.remote(url)
        } else {
          try await DemoServer.startOrJoin(port: options.port, dataFile: options.data)
        }
      let client = server.client(appID: options.appID)
      prepareDependencies { $0.defaultInstant = client }
      return DemoSession(command: command, title: title, options: options, server: server, client: client)
    } catch {
      FileHandle.standardError.write(Data("\(command): \(error)\n".utf8))
      exit(1)
    }
  }

  private init(command: String, title: String, options: DemoOptions, server: DemoServer, client: InstantClient) {
    self.command = command
    self.title = title
    self.options = options
    self.server = server
    self.client = client
    status = DemoStatus(client: client)
  }

  /// Whose server this is, for the header.
  public var serverRole: String {
    if server.embedded != nil {
      return "this terminal hosts the server (port \(options.port), data in \(options.data)): "
        + "the same command in another terminal joins it"
    }
    if let url = options.server { return "using the server at \(url.absoluteString)" }
    return "joined the server on port \(options.port) (another terminal hosts it)"
  }

  /// The whole frame: header, status line, `body`, and `help` while ``showingHelp``.
  public func frame(body: () -> [String], help: [String]) -> [String] {
    var lines = [
      Terminal.bold("\(command) — \(title)") + " · you are "
        + Terminal.colored(options.name, options.resolvedColor) + " · ? for help",
      Terminal.dim(serverRole),
      status.line(server: server),
      "",
    ]
    if showingHelp { lines += help.map { "  " + $0 } + [""] }
    lines += body()
    return lines
  }

  /// Draws the frame, then redraws it after every key and whenever anything it shows changes
  /// (Observation); `handle` gets each key. Ctrl-C and the end of input quit, as does `handle`
  /// returning ``KeyOutcome/quit``: the demo then runs `save` (make sure every edit is queued),
  /// waits (at most 2 s) for its writes to be acknowledged, stops the embedded server, restores
  /// the terminal, and exits.
  public func run(
    help: [String], body: @escaping @MainActor () -> [String],
    save: @escaping @MainActor () async -> Void = {},
    handle: @escaping @MainActor (Key) async -> KeyOutcome
  ) async -> Never {
    Terminal.enterRawMode()
    let screen = Screen { [self] in frame(body: body, help: help) }
    screen.start()
    for await key in keys() {
      if key == .interrupt || key == .endOfInput { break }
      if await handle(key) == .quit { break }
      screen.render()
    }
    screen.stop()
    await save()
    await finish()
  }

  /// Waits briefly for this demo's writes to reach the server, stops the embedded server,
  /// restores the terminal, and exits.
  public func finish() async -> Never {
    let deadline = ContinuousClock.now + .seconds(2)
    while status.connection == .authenticated, ContinuousClock.now < deadline,
      await client.pendingWrites.contains(where: { $0.state != .synced })
    {
      try? await Task.sleep(for: .milliseconds(50))
    }
    await server.stop()
    Terminal.restore()
    exit(0)
  }
}

/// Draws a frame and draws it again whenever something it read changes (Observation), or when
/// asked; a frame the same as the last one is not drawn again.
///
/// Observation says a value *will* change, and `@Shared` values change off the main actor, so a
/// redraw right after the notification can still read the old value: the screen redraws once at
/// once, once a moment later, and (cheaply, as unchanged frames are not drawn) every 100 ms.
@MainActor
private final class Screen {
  let frame: @MainActor () -> [String]
  var last: [String] = []
  var stopped = false
  var ticker: Task<Void, Never>?

  init(frame: @escaping @MainActor () -> [String]) { self.frame = frame }

  func start() {
    render()
    ticker = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(100))
        self?.render()
      }
    }
  }

  func stop() {
    stopped = true
    ticker?.cancel()
  }

  func render() {
    guard !stopped else { return }
    let lines = withObservationTracking(frame) {
      Task { @MainActor [weak self] in
        guard let self else { return }
        render()
        try? await Task.sleep(for: .milliseconds(10))
        render()
      }
    }
    guard lines != last else { return }
    last = lines
    Terminal.draw(lines)
  }
}
