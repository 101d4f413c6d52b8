import Foundation
import Logging

/// Logging for a demo: the libraries' logs would garble the demo's own output, so only critical
/// messages are printed (on stderr) unless `INSTANTDB_DEBUG` or `INSTANTDB_LOG_LEVEL` asks for more.
public enum DemoLogging {
  /// Call once, first thing in `main`.
  public static func bootstrap() {
    let environment = ProcessInfo.processInfo.environment
    let level: Logger.Level =
      environment["INSTANTDB_DEBUG"] != nil
      ? .debug : environment["INSTANTDB_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
  }
}
