import ArgumentParser
import DemoSupport
import Foundation

/// `swift run instant-demo`: two clients on one server, a short story told step by step.
@main
struct InstantDemo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "instant-demo",
    abstract: "Watch two clients sync through @Shared keys: todos, filtered keys, presence, offline edits, a refused write.",
    discussion: """
      With no options it starts an embedded instant-local (in memory, a free loopback port) and \
      needs no network. Exits 0 when every step happened, 1 naming the step that did not.
      """)

  @Option(help: "Run against this InstantDB-compatible server instead (http(s):// base or ws(s):// endpoint).")
  var server: String?

  @Option(name: .customLong("app-id"), help: "The app to use on --server (instant-local accepts any UUID).")
  var appID: String = DemoServer.appID

  @Option(help: "How long each step may take, in seconds.")
  var timeout: Double = 10

  mutating func validate() throws {
    guard UUID(uuidString: appID) != nil else {
      throw ValidationError("--app-id must be an app's id, a UUID like \(DemoServer.appID) (got “\(appID)”)")
    }
    appID = appID.lowercased()
  }

  mutating func run() async throws {
    DemoLogging.bootstrap()
    let target: DemoServer
    if let server {
      guard let url = URL(string: server) else { throw ValidationError("--server: not a URL: \(server)") }
      target = try DemoServer.remote(url)
    } else {
      target = try await DemoServer.startInMemory()
    }
    let story = await Story(server: target, appID: appID, timeout: .milliseconds(Int(timeout * 1000)))
    let passed = await story.run()
    await target.stop()
    if !passed { throw ExitCode.failure }
  }
}
