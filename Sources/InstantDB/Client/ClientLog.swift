import Foundation
import Logging

/// The client's logger: `INSTANTDB_LOG_LEVEL` = `off` | `error` | `info` | `debug` (default
/// `error`); `INSTANTDB_DEBUG=1` forces `debug`. Tokens never appear in a log line; frame bodies
/// (user data) only at `debug`.
enum ClientLog {
  static func make(label: String = "instantdb") -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = level(ProcessInfo.processInfo.environment)
    return logger
  }

  static func level(_ env: [String: String]) -> Logger.Level {
    if env["INSTANTDB_DEBUG"] == "1" { return .debug }
    switch env["INSTANTDB_LOG_LEVEL"]?.lowercased() {
    case "off": return .critical
    case "info": return .info
    case "debug": return .debug
    default: return .error
    }
  }
}
