public import Logging

/// A log handler that keeps every line (message and metadata) in memory, for tests that check
/// what the client or the server logs.
public struct CapturingLogHandler: LogHandler {
  public let lines: Locked<[String]>
  public var logLevel: Logger.Level = .trace
  public var metadata: Logger.Metadata = [:]

  public init(lines: Locked<[String]>) { self.lines = lines }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    let extra = metadata.merging(event.metadata ?? [:]) { $1 }
    lines.withLock { $0.append("\(event.level) \(event.message) \(extra)") }
  }

  /// A debug-level logger feeding `lines`.
  public static func logger(_ lines: Locked<[String]>) -> Logger {
    var logger = Logger(label: "instantdb-captured") { _ in CapturingLogHandler(lines: lines) }
    logger.logLevel = .debug
    return logger
  }
}
