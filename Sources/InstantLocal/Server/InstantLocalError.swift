/// Why the server could not start or keep its data.
public enum InstantLocalError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The SQLite database could not be opened, read or written; the message says what and how to fix it.
  case storage(String)
  /// The server could not listen on `address` (`host:port`); `reason` is the operating system's
  /// (for example "Address already in use (errno 98)").
  case cannotListen(address: String, reason: String)
  /// `host` is not an address of this machine (the operating system said `EADDRNOTAVAIL`).
  case notAnAddressOfThisMachine(host: String)
  /// The permission rules file cannot be used; `lines` are its problems as `file:line:column: error: …`.
  case invalidRules(lines: [String])
  /// An app operation that cannot be done; the message says why.
  case invalidApp(String)
  /// A backup cannot be written or restored; the message names the archive's entry and line.
  case backup(String)

  public var description: String {
    switch self {
    case let .storage(message):
      "storage: \(message)"
    case let .cannotListen(address, reason):
      "cannot listen on \(address): \(reason). Stop whatever uses that address, pick another --port, or use port 0 for any free one."
    case let .notAnAddressOfThisMachine(host):
      "cannot listen on \(host): it is not an address of this machine. Use --host 127.0.0.1 (this machine only), "
        + "0.0.0.0 (every network interface), or one of the addresses `ip addr` lists."
    case let .invalidRules(lines):
      lines.joined(separator: "\n")
    case let .invalidApp(message):
      message
    case let .backup(message):
      message
    }
  }
}
