import Foundation
public import Logging

/// Logging for a demo: the libraries' logs would garble the demo's own output, so only critical
/// messages are printed (on stderr) unless `INSTANTDB_DEBUG` or `INSTANTDB_LOG_LEVEL` asks for more.
public enum DemoLogging {
  /// The level every demo logger uses.
  public static let level: Logger.Level = {
    let environment = ProcessInfo.processInfo.environment
    if environment["INSTANTDB_DEBUG"] != nil { return .debug }
    return environment["INSTANTDB_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
  }()

  /// Call once, first thing in `main`: loggers made with the default handler (SharingInstant's,
  /// for one) print at ``level`` only.
  public static func bootstrap() {
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
  }

  /// A logger at ``level``, for components that set their own level otherwise (the client reads
  /// `INSTANTDB_LOG_LEVEL` and logs errors by default).
  static func logger(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = level
    return logger
  }
}
