import DemoSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  // Glibc's module map leaves out the pseudo-terminal functions of <stdlib.h> (they are behind
  // _XOPEN_SOURCE); these are plain C functions of ints and pointers.
  @_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
  @_silgen_name("grantpt") private func grantpt(_ fd: Int32) -> Int32
  @_silgen_name("unlockpt") private func unlockpt(_ fd: Int32) -> Int32
  @_silgen_name("ptsname") private func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>?
#endif

/// A demo on a real (pseudo) terminal: raw mode while it runs, the terminal as it was after.
@Suite("Terminal demos on a terminal", .timeLimit(.minutes(10)))
struct TerminalTTYTests {
  @Test("On a TTY: raw mode while running, ANSI redraws in place, the terminal restored after Ctrl-C")
  func rawModeAndRestore() async throws {
    let master = posix_openpt(O_RDWR | O_NOCTTY)
    try #require(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0)
    defer { close(master) }
    let slavePath = String(cString: try #require(ptsname(master)))
    let slave = open(slavePath, O_RDWR | O_NOCTTY)
    try #require(slave >= 0)
    defer { close(slave) }
    let screen = TTYScreen(master: master)
    defer { screen.stop() }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demos-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = DemoProcess.buildDirectory.appendingPathComponent("todos")
    process.arguments = ["--port", "\(freePort())", "--data", directory.appendingPathComponent("demos.sqlite").path, "--name", "tty"]
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = terminal
    process.standardOutput = terminal
    process.standardError = terminal
    try process.run()
    defer { if process.isRunning { process.terminate() } }

    try await screen.wait("connected") { $0.contains("authenticated") }
    var attributes = termios()
    tcgetattr(slave, &attributes)
    #expect(attributes.c_lflag & tcflag_t(ICANON) == 0, "not canonical while running")
    #expect(attributes.c_lflag & tcflag_t(ECHO) == 0, "no echo while running")
    #expect(screen.text.contains("\u{1B}[?1049h"), "the alternate screen")

    _ = "add on a tty\r".withCString { write(master, $0, strlen($0)) }
    try await screen.wait("the todo, redrawn from the top") { $0.contains("\u{1B}[H") && $0.contains("1. [ ] on a tty") }

    _ = write(master, [UInt8(3)], 1)  // Ctrl-C: a byte in raw mode
    try await eventually("todos exits after Ctrl-C", every: .milliseconds(50)) { !process.isRunning }
    #expect(process.terminationStatus == 0)
    tcgetattr(slave, &attributes)
    #expect(attributes.c_lflag & tcflag_t(ICANON) != 0, "canonical again")
    #expect(attributes.c_lflag & tcflag_t(ECHO) != 0, "echo again")
    try await screen.wait("the main screen back") { $0.contains("\u{1B}[?1049l") }
  }
}

/// What a demo wrote to the terminal, read from the pseudo-terminal's master side.
final class TTYScreen: @unchecked Sendable {
  private let handle: FileHandle
  private let lock = NSLock()
  private var data = Data()

  init(master: Int32) {
    handle = FileHandle(fileDescriptor: master, closeOnDealloc: false)
    handle.readabilityHandler = { [weak self] handle in
      let chunk = handle.availableData
      guard let self, !chunk.isEmpty else { return }
      lock.withLock { data.append(chunk) }
    }
  }

  var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

  func wait(_ what: String, timeout: Duration = backstop, until holds: @escaping @Sendable (String) -> Bool) async throws {
    try await eventually(
      "\(what) on the terminal", timeout: timeout, every: .milliseconds(50), detail: { String(text.suffix(2000)) }
    ) { holds(self.text) }
  }

  func stop() { handle.readabilityHandler = nil }
}
