import DemoSupport
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal demo run as a child process the way a person runs it, with its stdin and stdout
/// pipes in place of the keyboard and the screen: ``type(_:)`` writes keys, ``waitForFrame`` reads
/// the screen (the plain-text frames a demo prints when stdout is not a terminal).
final class DemoProcess: @unchecked Sendable {
  let label: String
  private let process: SpawnedProcess
  private let input: FileHandle
  private let lock = NSLock()
  private var buffer = Data()
  private var outputEnded = false

  /// Where `swift build --build-tests` puts the demos: next to the test bundle. (Read from the
  /// link itself: when a rebuild has replaced the bundle while it runs, the link names the old
  /// file with " (deleted)" after it, and resolving it would give /proc/self.)
  static var buildDirectory: URL {
    if var path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
      return URL(fileURLWithPath: path).deletingLastPathComponent()
    }
    return (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).deletingLastPathComponent()
  }

  /// Starts the demo `executable` (`todos`, `chat`, …) with `arguments`.
  init(_ executable: String, _ arguments: [String], label: String) throws {
    signal(SIGPIPE, SIG_IGN)
    self.label = label
    // posix_spawn, not Foundation's Process, whose run() can crash the test process on Linux
    // (swift-corelibs-foundation #5472; docs/reliability.md).
    process = try SpawnedProcess(
      Self.buildDirectory.appendingPathComponent(executable).path, arguments, input: .pipe, output: .pipe, error: .output)
    guard let input = process.standardInput, let reader = process.standardOutput else {
      throw DemoProcessFailure("\(label): its standard input and output were not connected")
    }
    self.input = input
    // Read on a thread of its own rather than with `readabilityHandler`: a dispatch source
    // still registered when the pipe's descriptor is closed (on `stop()`, then deinit) crashed
    // libdispatch's event loop now and then. The thread holds the handle, so the descriptor
    // stays open until the thread has read the end of the output.
    Thread { [weak self] in
      while true {
        let data = reader.availableData
        guard let self else { if data.isEmpty { return } else { continue } }
        let ended = data.isEmpty
        lock.withLock {
          if ended { outputEnded = true } else { buffer.append(data) }
        }
        if ended { return }
      }
    }.start()
  }

  deinit { stop() }

  /// Everything the demo printed so far.
  var text: String { lock.withLock { String(decoding: buffer, as: UTF8.self) } }

  /// The complete frames printed so far, oldest first.
  var frames: [String] {
    let parts = text.components(separatedBy: "\n\(Terminal.frameEnd)\n")
    return parts.dropLast().map { $0.hasPrefix("\n") ? String($0.dropFirst()) : $0 }
  }

  /// Types `keys` (bytes on the demo's stdin, as a terminal in raw mode sends them).
  func type(_ keys: String) {
    try? input.write(contentsOf: Data(keys.utf8))
  }

  /// Closes stdin (Ctrl-D at the end of a pipe).
  func closeInput() {
    try? input.close()
  }

  /// Waits until the newest frame satisfies `holds` — or, with `since`, any frame from that index
  /// on (for something shown only for a while) — and returns it. Throws after `timeout`, or when
  /// the demo exits first, with what it printed last.
  @discardableResult
  func waitForFrame(
    _ what: String, since: Int? = nil, timeout: Duration = backstop, where holds: @escaping @Sendable (String) -> Bool
  ) async throws -> String {
    try await eventually(
      "\(label): \(what)", timeout: timeout, every: .milliseconds(50),
      detail: { "newest frame:\n\(frames.last ?? tail)" }
    ) {
      let frames = self.frames
      if let found = (since.map { frames.dropFirst($0) } ?? frames.suffix(1)).last(where: holds) { return found }
      if !self.process.isRunning {
        throw DemoProcessFailure("\(self.label) exited (\(self.process.terminationStatus)) before \(what); it printed:\n\(self.tail)")
      }
      return nil
    }
  }

  /// Waits for the demo to exit by itself and returns its status; then waits a moment for the
  /// rest of its output (the end of the pipe can come later, or not at all while another child
  /// process started meanwhile holds a copy of its write end).
  func waitForExit(timeout: Duration = backstop) async throws -> Int32 {
    try await eventually("\(label) exits", timeout: timeout, every: .milliseconds(50), detail: { "it printed:\n\(tail)" }) {
      !self.process.isRunning
    }
    try? await eventually("the end of \(label)'s output", timeout: .seconds(1), every: .milliseconds(20)) {
      self.lock.withLock { self.outputEnded }
    }
    return process.terminationStatus
  }

  /// Waits until what the demo printed satisfies `holds`, whether or not it still runs.
  func waitForOutput(
    _ what: String, timeout: Duration = backstop, where holds: @escaping @Sendable (String) -> Bool
  ) async throws {
    try await eventually("\(label) prints \(what)", timeout: timeout, every: .milliseconds(50), detail: { "it printed:\n\(tail)" }) {
      holds(self.text)
    }
  }

  /// Ends the demo if it still runs (SIGTERM, then SIGKILL after a second).
  func stop() {
    if process.isRunning {
      process.terminate()
      let deadline = Date().addingTimeInterval(1)
      while process.isRunning, Date() < deadline { usleep(10_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
  }

  private var tail: String { String(text.suffix(3000)) }
}

struct DemoProcessFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A TCP port nothing listens on right now (bound to port 0, then released).
func freePort() -> Int {
  #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = 0
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
      bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
    }
  }
  return Int(UInt16(bigEndian: address.sin_port))
}
