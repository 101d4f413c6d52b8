public import Foundation

/// Runs `work` on a thread of its own and waits for it without holding a thread of Swift's
/// cooperative pool.
///
/// On this 2-core machine the pool has two threads, and the whole suite's tasks (servers, clients,
/// every other test) share them. Work that blocks — waiting for a child process, reading a pipe to
/// its end — or that computes for seconds without suspending — fuzz rounds — belongs here: on the
/// pool it would stall every other test, whose waits then time out for no fault of their own.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result(catching: work)) }
  }
}

/// ``offThePool(_:)`` for work that cannot throw.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: work()) }
  }
}

/// Runs `executable` with `arguments` (in `directory`, if given) to its end and returns its exit
/// status and its standard output and error together, waiting ``offThePool(_:)``.
public func runToEnd(
  _ executable: URL, _ arguments: [String], in directory: URL? = nil
) async throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = await offThePool {
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
  }
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
