public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with `posix_spawn`: the tests' servers, tools and executables, and the
/// chaos run's client processes.
///
/// Not Foundation's `Process`: on Linux `Process.run()` can crash the whole test process, reading
/// past a buffer while it lists `/proc/self/fd` to close the child's descriptors
/// (swift-corelibs-foundation #5472, in Swift 6.3.1), and the suite, with hundreds of sockets open,
/// met it. The child gets standard input, output and error as asked, and no other descriptor of
/// the test process (glibc closes them in the child).
public final class SpawnedProcess: @unchecked Sendable {
  /// Where a standard stream goes.
  public enum Stream: Sendable {
    /// A pipe the test reads (or, for input, writes).
    case pipe
    /// `/dev/null`.
    case null
    /// Standard error only: wherever standard output goes.
    case output
    /// The parent's own.
    case inherit
  }

  public let processIdentifier: pid_t
  /// The write end of the child's standard input (`.pipe`).
  public let standardInput: FileHandle?
  /// The read ends of the child's standard output and error (`.pipe`).
  public let standardOutput: FileHandle?
  public let standardError: FileHandle?
  private let lock = NSLock()
  private var status: Int32?

  /// Starts `executable` (a path; found on `PATH` when it has no slash) with `arguments`.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
    input: Stream = .null, output: Stream = .pipe, error: Stream = .null
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var ours: [Int32] = []
    var theirs: [Int32] = []
    /// Points the child's `fd` at `stream` (in order: `.output` copies the child's standard output,
    /// set before it); returns the parent's end of a pipe when one was made.
    func attach(_ stream: Stream, to fd: Int32, childReads: Bool) throws -> Int32? {
      switch stream {
      case .null:
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", childReads ? O_RDONLY : O_WRONLY, 0)
        return nil
      case .output:
        posix_spawn_file_actions_adddup2(&actions, 1, fd)
        return nil
      case .inherit:
        return nil
      case .pipe:
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Close-on-exec, so no other child inherits them; the dup2 gives this child its copy.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (child, parent) = childReads ? (ends[0], ends[1]) : (ends[1], ends[0])
        posix_spawn_file_actions_adddup2(&actions, child, fd)
        theirs.append(child)
        ours.append(parent)
        return parent
      }
    }
    let inputEnd: Int32?
    let outputEnd: Int32?
    let errorEnd: Int32?
    do {
      inputEnd = try attach(input, to: 0, childReads: true)
      outputEnd = try attach(output, to: 1, childReads: false)
      errorEnd = try attach(error, to: 2, childReads: false)
    } catch {
      for fd in ours + theirs { close(fd) }
      throw error
    }
    guard let closeFrom = SpawnActions.addCloseFrom else { throw POSIXError(.ENOSYS) }
    _ = closeFrom(&actions, 3)
    // In `directory`: through the shell, which changes to it and then becomes the program.
    var command = [executable] + arguments
    if let directory { command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory] + command }
    let argv = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in environmentLines { free(pointer) } }
    var pid = pid_t()
    let spawned =
      command[0].contains("/")
      ? posix_spawn(&pid, command[0], &actions, nil, argv, environmentLines)
      : posix_spawnp(&pid, command[0], &actions, nil, argv, environmentLines)
    for fd in theirs { close(fd) }
    guard spawned == 0 else {
      for fd in ours { close(fd) }
      throw POSIXError(.init(rawValue: spawned) ?? .EIO)
    }
    processIdentifier = pid
    standardInput = inputEnd.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    standardOutput = outputEnd.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    standardError = errorEnd.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
  }

  /// Whether the child has not exited yet (reaping it when it has).
  public var isRunning: Bool {
    lock.withLock {
      guard status == nil else { return false }
      var raw: Int32 = 0
      let result = waitpid(processIdentifier, &raw, WNOHANG)
      if result == processIdentifier { status = raw }
      return result == 0
    }
  }

  /// Blocks until the child exits; call off the cooperative pool.
  public func waitUntilExit() {
    if lock.withLock({ status != nil }) { return }
    var raw: Int32 = 0
    while true {
      let result = waitpid(processIdentifier, &raw, 0)
      if result == processIdentifier { break }
      if result == -1 && errno != EINTR { return }
    }
    lock.withLock { status = raw }
  }

  /// The exit code, or 128 + the signal that ended it, as a shell reports it (once it has exited).
  public var terminationStatus: Int32 {
    let raw = lock.withLock { status } ?? 0
    return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
  }

  /// Sends `signal` (SIGTERM unless given).
  public func terminate(_ signal: Int32 = SIGTERM) { kill(processIdentifier, signal) }

  /// `kill -9` and reaped.
  public func kill9() {
    terminate(SIGKILL)
    waitUntilExit()
  }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not show
/// (it is a GNU extension); `nil` before glibc 2.34.
enum SpawnActions {
  typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  static let addCloseFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: CloseFrom.self)
  }
}
