import ChildProcesses
import Foundation
import NIOConcurrencyHelpers

/// A child process of the chaos run, driven by lines: commands on its stdin, replies on its stdout.
/// It exits by itself when its stdin closes (the parent died), so a failed run leaves no orphan.
final class ChildProcess: Sendable {
  let name: String
  private let process: SpawnedProcess
  private let input: FileHandle
  private let inbox: LineInbox

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(name: String, executable: URL, arguments: [String], quiet: Bool) throws {
    self.name = name
    // posix_spawn, not Foundation's Process: on Linux Process.run() can crash the parent
    // (swift-corelibs-foundation #5472; a CI run of the suite met it here).
    let process = try SpawnedProcess(
      executable.path, arguments, input: .pipe, output: .pipe, error: quiet ? .null : .inherit)
    guard let input = process.standardInput, let output = process.standardOutput else {
      throw Failure(description: "\(name): its standard input and output were not connected")
    }
    self.process = process
    self.input = input
    let inbox = LineInbox()
    self.inbox = inbox
    let reader = Thread {
      var pending = Data()
      while true {
        let chunk = output.availableData
        if chunk.isEmpty { break }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 10) {
          inbox.push(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
          pending.removeSubrange(pending.startIndex...newline)
        }
      }
      inbox.close()
    }
    reader.start()
  }

  var pid: Int32 { process.processIdentifier }

  func send(_ line: String) throws {
    do {
      try input.write(contentsOf: Data((line + "\n").utf8))
    } catch {
      throw Failure(description: "\(name): cannot write to it (\(error))")
    }
  }

  /// The next line it prints, or a failure when it exits or `timeout` passes first.
  func nextLine(timeout: Duration) async throws -> String {
    guard let line = await inbox.next(timeout: timeout) else {
      throw Failure(description: "\(name): no answer within \(timeout) (running: \(process.isRunning))")
    }
    return line
  }

  /// Sends a command and returns its one-line answer.
  func request(_ line: String, timeout: Duration = .seconds(60)) async throws -> String {
    try send(line)
    return try await nextLine(timeout: timeout)
  }

  /// `kill -9`, then waits until it is reaped.
  func kill9() async {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    await reap()
  }

  /// Closes its stdin (it exits), killing it if it has not exited after `grace`.
  func stop(grace: Duration = .seconds(5)) async {
    try? input.close()
    let deadline = ContinuousClock.now + grace
    while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
    await kill9()
  }

  /// Waits until it has exited and is reaped (``SpawnedProcess/isRunning`` reaps it), polling:
  /// a blocking wait would hold a thread of the cooperative pool.
  private func reap() async {
    while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
  }
}

/// Lines from a child's stdout, handed to one waiting reader at a time.
final class LineInbox: Sendable {
  private struct State {
    var lines: [String] = []
    var closed = false
    var waiter: (id: Int, continuation: CheckedContinuation<String?, Never>)?
    var nextWaiter = 0
  }

  private let state = NIOLockedValueBox(State())

  func push(_ line: String) {
    let waiter = state.withLockedValue { state -> CheckedContinuation<String?, Never>? in
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter.continuation
      }
      state.lines.append(line)
      return nil
    }
    waiter?.resume(returning: line)
  }

  func close() {
    let waiter = state.withLockedValue { state -> CheckedContinuation<String?, Never>? in
      state.closed = true
      defer { state.waiter = nil }
      return state.waiter?.continuation
    }
    waiter?.resume(returning: nil)
  }

  /// The next line; nil when the stream closed or `timeout` passed.
  func next(timeout: Duration) async -> String? {
    await withCheckedContinuation { continuation in
      let id = state.withLockedValue { state -> Int? in
        if !state.lines.isEmpty {
          continuation.resume(returning: state.lines.removeFirst())
          return nil
        }
        if state.closed {
          continuation.resume(returning: nil)
          return nil
        }
        state.nextWaiter += 1
        state.waiter = (state.nextWaiter, continuation)
        return state.nextWaiter
      }
      guard let id else { return }
      Task {
        try? await Task.sleep(for: timeout)
        let expired = self.state.withLockedValue { state -> CheckedContinuation<String?, Never>? in
          guard let waiter = state.waiter, waiter.id == id else { return nil }
          state.waiter = nil
          return waiter.continuation
        }
        expired?.resume(returning: nil)
      }
    }
  }
}
