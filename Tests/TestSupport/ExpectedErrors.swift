public import Logging
public import Testing

/// The error lines a test's clients log, checked when the test ends: each line the test expects
/// (a part of its text) must have been logged, and nothing else at error level may have been.
///
/// A test that feeds a client bad input on purpose names what the client should say about it;
/// every other test expects no error at all. So a passing run prints no error line, and a client
/// that stops reporting a refusal — or starts reporting one nobody caused — fails its test.
public final class ExpectedErrors: Sendable {
  /// Parts of lines that must be logged.
  public let expected: [String]
  /// Parts of lines that may be logged (a random workload's refusals): allowed, not required.
  public let allowed: [String]
  private let lines = Locked<[String]>([])

  public init(_ expected: [String], allowing allowed: [String] = []) {
    self.expected = expected
    self.allowed = allowed
  }

  /// A logger that keeps the error and critical lines (the client's default level) for ``check(_:)``.
  public var logger: Logger {
    var logger = CapturingLogHandler.logger(lines)
    logger.logLevel = .error
    return logger
  }

  /// The lines logged so far.
  public var logged: [String] { lines.withLock { $0 } }

  /// Records an issue for each expected line that was not logged and for each logged line that
  /// was not expected.
  public func check(_ sourceLocation: SourceLocation = #_sourceLocation) {
    let logged = self.logged
    for part in expected where !logged.contains(where: { $0.contains(part) }) {
      Issue.record("expected a logged error containing \"\(part)\"; logged: \(logged)", sourceLocation: sourceLocation)
    }
    let unexpected = logged.filter { line in !(expected + allowed).contains { line.contains($0) } }
    if !unexpected.isEmpty {
      Issue.record("errors the test did not expect: \(unexpected)", sourceLocation: sourceLocation)
    }
  }
}
