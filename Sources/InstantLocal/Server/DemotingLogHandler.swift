import Logging

/// Writes as debug lines the errors that `demote` picks out, and everything else as it is: for
/// what a library logs as an error that is none here (Hummingbird's, on a request that was not
/// HTTP, or on the stop of a server whose listening socket was closed first on purpose).
struct DemotingLogHandler: LogHandler {
  var base: any LogHandler
  let demote: @Sendable (LogEvent) -> Bool

  var logLevel: Logger.Level {
    get { base.logLevel }
    set { base.logLevel = newValue }
  }
  var metadata: Logger.Metadata {
    get { base.metadata }
    set { base.metadata = newValue }
  }
  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { base[metadataKey: key] }
    set { base[metadataKey: key] = newValue }
  }

  func log(event: LogEvent) {
    guard event.level >= .error, demote(event) else { return base.log(event: event) }
    guard base.logLevel <= .debug else { return }
    var event = event
    event.level = .debug
    base.log(event: event)
  }

  /// `logger` with its errors that `demote` picks out written as debug lines.
  static func demoting(_ logger: Logger, _ demote: @escaping @Sendable (LogEvent) -> Bool) -> Logger {
    var logger = logger
    logger.handler = DemotingLogHandler(base: logger.handler, demote: demote)
    return logger
  }
}
