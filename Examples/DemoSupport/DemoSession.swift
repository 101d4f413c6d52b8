import Foundation
public import Observation
public import SharingInstant

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// Whether the help is shown (under the header).
  public var showingHelp = false
  /// A one-line message for the person at the keyboard (what the last command did); demos show it
  /// above their input line. Observed, so setting it later (after an `await`) redraws.
  public var notice: String?
  /// How long quitting waits for this terminal's writes to reach the server.
  private let flushTimeout = Duration.seconds(5)

  /// Reads the command line, then finds or starts the server and makes the client every
  /// `@Shared` key created afterwards uses. Prints the problem and exits on a bad option or a
  /// server that cannot start; prints the usage and exits on `--help`.
  public static func start(
    _ command: String, title: String, arguments: [String] = Array(CommandLine.arguments.dropFirst())
  ) async -> DemoSession {
    signal(SIGPIPE, SIG_IGN)
    DemoLogging.bootstrap()
    do {
      guard let options = try DemoOptions.parse(arguments, command: command) else {
        print(DemoOptions.usage(command, title))
        exit(0)
      }
      let server =
        if let url = options.server {
          try DemoServer.remote(url).checkedReachable()
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

  package init(command: String, title: String, options: DemoOptions, server: DemoServer, client: InstantClient) {
    self.command = command
    self.title = title
    self.options = options
    self.server = server
    self.client = client
    status = DemoStatus(client: client)
  }

  /// Whose server this is, for the header.
  public var serverRole: String {
    if server.embedded != nil { return "this terminal hosts the server on port \(options.port) (data: \(options.data))" }
    if let url = options.server { return "using the server at \(url.absoluteString)" }
    return "joined the server on port \(options.port) (another terminal hosts it)"
  }

  /// The whole frame: header, status line, the help while ``showingHelp``, then `body`.
  public func frame(_ demo: some TerminalDemo) -> [String] {
    var lines = [
      Terminal.bold("\(command) — \(title)"),
      "you are " + Terminal.colored(options.name, options.resolvedColor) + " · ? for help · \(quitHint)",
      Terminal.dim(serverRole),
    ]
    lines += status.lines()
    lines.append("")
    if showingHelp { lines += demo.help.map { "  " + $0 } + [""] }
    lines += demo.body()
    return lines
  }

  /// Runs `demo` on this terminal: draws it, redraws it whenever what it shows changes, hands
  /// it every key; Ctrl-C and the end of input end it (the one way out of every demo). Then waits (at most
  /// ``flushTimeout``; a second Ctrl-C stops waiting) until the server has acknowledged every
  /// write made here, stops the embedded server, restores the terminal and exits: 0 when every
  /// write arrived, 1 (naming what was not sent) otherwise.
  public func run(_ demo: some TerminalDemo) async -> Never {
    Terminal.enterRawMode()
    let screen = Screen { [self] in Terminal.fit(frame(demo)) }
    // A resized terminal gets the frame again, fitted to its new height.
    signal(SIGWINCH, SIG_IGN)
    let resized = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    resized.setEventHandler { MainActor.assumeIsolated { screen.redraw() } }
    resized.resume()
    let keys = DemoSupport.keys()
    await play(demo, keys: keys, screen: screen)
    let unsent = await quit(demo, keys: keys, screen: screen)
    await server.stop()
    Terminal.restore()
    if let unsent { FileHandle.standardError.write(Data("\(command): \(unsent)\n".utf8)) }
    exit(unsent == nil ? 0 : 1)
  }

  /// Draws `demo` on `screen` and feeds it `keys` until Ctrl-C or the end of input.
  private func play(_ demo: some TerminalDemo, keys: AsyncStream<Key>, screen: Screen) async {
    screen.render()
    for await key in keys {
      if key == .interrupt || key == .endOfInput { return }
      await demo.handle(key)
      screen.setNeedsRender()
    }
  }

  /// Stops drawing, lets `demo` queue its last edits, and waits until the server has acknowledged
  /// every write of this client — at most ``flushTimeout``, or until a Ctrl-C in `keys` — saying
  /// so on the screen at once. Returns what was not sent, `nil` when everything was.
  private func quit(_ demo: some TerminalDemo, keys: AsyncStream<Key>, screen: Screen) async -> String? {
    screen.stop()
    await demo.save()
    var unsent = await client.pendingWrites.count { $0.state != .synced }
    guard unsent > 0 else { return nil }
    let writes = unsent == 1 ? "1 write" : "\(unsent) writes"
    Terminal.draw(Terminal.fit(screen.lastFrame + ["quitting: sending \(writes) to the server… (Ctrl-C quits now)"]))
    let deadline = ContinuousClock.now + flushTimeout
    let interrupt = Interrupt()
    let watcher = Task { @MainActor in
      for await key in keys where key == .interrupt {
        interrupt.raised = true
        return
      }
    }
    defer { watcher.cancel() }
    while unsent > 0, !interrupt.raised, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
      unsent = await client.pendingWrites.count { $0.state != .synced }
    }
    guard unsent > 0 else { return nil }
    let were = unsent == 1 ? "1 write was" : "\(unsent) writes were"
    return "\(were) not acknowledged by the server (connection: \(status.connection.rawValue)"
      + (status.reason.map { ", \($0)" } ?? "") + "); this demo keeps its queue in memory, so \(unsent == 1 ? "it is" : "they are") lost"
  }
}

/// Whether Ctrl-C was pressed while quitting.
@MainActor
private final class Interrupt {
  var raised = false
}
