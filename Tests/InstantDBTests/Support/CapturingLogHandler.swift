import TestSupport
import Logging

/// A log handler that keeps every line (message and metadata) in memory, for tests that check
/// what the client logs.
struct CapturingLogHandler: LogHandler {
  let lines: Locked<[String]>
  var logLevel: Logger.Level = .trace
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let extra = metadata.merging(event.metadata ?? [:]) { $1 }
    lines.withLock { $0.append("\(event.level) \(event.message) \(extra)") }
  }

  /// A debug-level logger feeding `lines`.
  static func logger(_ lines: Locked<[String]>) -> Logger {
    var logger = Logger(label: "instantdb-captured") { _ in CapturingLogHandler(lines: lines) }
    logger.logLevel = .debug
    return logger
  }
}
