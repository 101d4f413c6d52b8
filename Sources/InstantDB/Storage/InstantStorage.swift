public import Foundation

/// Where a client keeps its pending writes, cached query results and attrs.
public enum InstantStorage: Sendable, Equatable {
  /// A SQLite file (created if missing). Only one client at a time may use a file: a second
  /// client that names the same file keeps its state in memory and reports
  /// ``InstantClient/storageProblem``.
  case sqlite(URL)
  /// Memory only, for tests and previews: nothing survives the process.
  case memory

  /// `Application Support/InstantDB/<appId>.sqlite` on Apple platforms,
  /// `$XDG_DATA_HOME/instantdb/<appId>.sqlite` (or `~/.local/share/…`) elsewhere.
  public static func defaultFile(appId: String) -> InstantStorage {
    #if canImport(Darwin)
      let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
        ?? URL(fileURLWithPath: NSTemporaryDirectory())
      return .sqlite(base.appendingPathComponent("InstantDB").appendingPathComponent("\(appId).sqlite"))
    #else
      let env = ProcessInfo.processInfo.environment
      let base = env["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share")
      return .sqlite(base.appendingPathComponent("instantdb").appendingPathComponent("\(appId).sqlite"))
    #endif
  }
}

/// What happened to a local database the client could not use.
public struct StorageProblem: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The file could not be read; a copy of it (checked) is at ``movedTo``, the file was removed
    /// and the client started clean.
    case unreadable
    /// The file was damaged, and what could still be read was kept: ``reason`` says how many
    /// queued writes were kept and how many unreadable rows were dropped (writes among them are
    /// lost on this device). A copy of the damaged file is at ``movedTo``.
    case repaired
    /// Another client holds the file; this client keeps its state in memory.
    case inUse
    /// The file could not be created or opened, or it is damaged and no copy of it could be made
    /// (it is then left exactly as it is); this client keeps its state in memory.
    case unavailable
  }

  public var kind: Kind
  public var path: String
  /// Where an unreadable file was moved, or a copy of a repaired one was put.
  public var movedTo: String?
  public var reason: String
  /// The error behind ``reason`` (the file system's or the database's), when there was one. Not
  /// part of `==`.
  public var underlying: (any Error)?

  init(kind: Kind, path: String, movedTo: String? = nil, reason: String, underlying: (any Error)? = nil) {
    self.kind = kind
    self.path = path
    self.movedTo = movedTo
    self.reason = reason
    self.underlying = underlying
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.kind == b.kind && a.path == b.path && a.movedTo == b.movedTo && a.reason == b.reason
  }

  public var description: String {
    switch kind {
    case .unreadable:
      "the local database \(path) could not be read (\(reason)); it was moved to \(movedTo ?? "?") and the client started clean"
    case .repaired:
      "the local database \(path) was damaged (\(reason)); what could be read was kept, and a copy of the damaged file is at \(movedTo ?? "?")"
    case .inUse:
      "the local database \(path) is in use by another client; this client keeps its state in memory"
    case .unavailable:
      "the local database \(path) could not be opened (\(reason)); this client keeps its state in memory"
    }
  }
}
