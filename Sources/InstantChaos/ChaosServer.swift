import Foundation
import InstantCore

/// The server child process, restarted on the same data file after each `kill -9`; the proxies
/// follow it to its new port.
actor ChaosServer {
  private let executable: URL
  private let data: String
  private let quiet: Bool
  private var child: ChildProcess?
  private(set) var port = 0
  private var proxies: [ChaosProxy] = []
  private var restarting = false

  init(executable: URL, data: String, quiet: Bool) {
    self.executable = executable
    self.data = data
    self.quiet = quiet
  }

  func start() async throws {
    let child = try ChildProcess(
      name: "server", executable: executable, arguments: ["server", "--data", data], quiet: quiet)
    self.child = child
    let line = try await child.nextLine(timeout: .seconds(60))
    guard let port = (try? JSON.parse(line))?["port"]?.numberValue else {
      throw ChildProcess.Failure(description: "server: unexpected first line \(line)")
    }
    self.port = Int(port)
    for proxy in proxies { proxy.retarget(self.port) }
  }

  func follow(_ proxy: ChaosProxy) { proxies.append(proxy) }

  /// `kill -9`, down for `downtime`, then started again on the same file. Returns false (and
  /// does nothing) when another restart is under way.
  func killAndRestart(downtime: Duration) async throws -> Bool {
    guard !restarting else { return false }
    restarting = true
    defer { restarting = false }
    await child?.kill9()
    child = nil
    try await Task.sleep(for: downtime)
    try await start()
    return true
  }

  func stop() async {
    await child?.stop()
    child = nil
  }
}
