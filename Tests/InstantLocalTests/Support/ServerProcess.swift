import Foundation
import TestSupport

/// The `instant-local` executable run as a child process, with its output collected.
final class ServerProcess {
  /// The built `instant-local` next to the test bundle, if it was built.
  static var binary: URL? {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [dir, dir.deletingLastPathComponent()] {
      let url = candidate.appendingPathComponent("instant-local")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }

  let process: SpawnedProcess
  let stdout = OutputBuffer()
  let stderr = OutputBuffer()
  private(set) var port = 0

  /// Launches the server and waits for its banner. It pings every 60 s unless `arguments` say
  /// otherwise (as `InstantLocalConfiguration.testing()`: a 5 s ping closes sockets the loaded
  /// suite leaves unanswered).
  init(arguments: [String]) async throws {
    guard let binary = Self.binary else { throw CocoaError(.fileNoSuchFile) }
    let arguments = arguments.contains("--ping-interval") ? arguments : arguments + ["--ping-interval", "60"]
    process = try SpawnedProcess(binary.path, arguments, output: .pipe, error: .pipe)
    let stdout = self.stdout
    let stderr = self.stderr
    process.standardOutput?.readabilityHandler = { stdout.append($0.availableData) }
    process.standardError?.readabilityHandler = { stderr.append($0.availableData) }
    let text = try await stdout.wait(for: "/runtime/session")
    let match = text.split(separator: "\n").first { $0.contains("ws://") }
    let portText = match?.split(separator: ":").last?.split(separator: "/").first
    port = Int(portText ?? "") ?? 0
  }

  /// `kill -9`.
  func kill() {
    process.kill9()
  }

  /// SIGTERM, for a clean stop.
  func terminate() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// Text a child process wrote, readable while it runs.
///
/// `@unchecked Sendable`: every access to `data` holds `lock`.
final class OutputBuffer: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()

  func append(_ chunk: Data) {
    lock.lock()
    data.append(chunk)
    lock.unlock()
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: data, as: UTF8.self)
  }

  /// Waits until the text contains `needle`; returns all of it.
  func wait(for needle: String, timeout: Duration = backstop) async throws -> String {
    try await eventually("\(needle) in the output", timeout: timeout, every: .milliseconds(20), detail: { text }) {
      let current = self.text
      return current.contains(needle) ? current : nil
    }
  }
}
