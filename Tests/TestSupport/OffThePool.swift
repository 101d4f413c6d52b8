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
/// status and its standard output and error together, waiting ``offThePool(_:)``. Spawned as a
/// ``SpawnedProcess`` (not Foundation's `Process`, which can crash on Linux).
public func runToEnd(
  _ executable: URL, _ arguments: [String], in directory: URL? = nil
) async throws -> (status: Int32, output: String) {
  let process = try SpawnedProcess(executable.path, arguments, directory: directory?.path, output: .pipe, error: .output)
  return await offThePool {
    let data = process.standardOutput?.readDataToEndOfFile() ?? Data()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
